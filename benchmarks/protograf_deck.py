"""The yardstick of bench_build.py: a bare 80-card poker deck in protograf 0.5.2.

Written the way protograf's documentation builds a deck from data: each card
has a name and one line of effect text (wrapped to the card), no art, no
backs.  bench_build.py runs it with protograf's own `-d FOLDER` option, in a
virtual environment of its own; protograf is not a dependency of kitgen.
"""

from protograf import Card, Create, Data, Deck, Save, T, text

CARDS = 80

rows = [["Name", "Text"]]
for i in range(1, CARDS + 1):
    rows.append([f"Card {i:02d}", f"Effect number {i}: draw {i % 4 + 1} cards, then discard one."])

Create(filename="protograf_deck.pdf", paper="Letter")
Data(data_list=rows)
Deck(cards=CARDS)          # protograf's default card: poker size, 6.35 x 8.89 cm
Card("all",
     text(text=T("{{ Name }}"), x=3.175, y=1.2, font_size=14),
     text(text=T("{{ Text }}"), x=0.5, y=5.0, width=5.35, height=3.0, wrap=True, font_size=10))
Save()
