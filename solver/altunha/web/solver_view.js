// Altun Ha's view on kitgen's solver page.  Four questions, one a tab:
//   Farm & Build  a hand tapped together from the deck, the Population (typed or stepped) and the
//                 temples on the table (each top changeable in place); the best play drawn with the
//                 cards' own pictures, its sums, the temples after it, the best play with another Farm
//                 beside it, the preference that orders plays of equal points, the rulings used;
//                 "check my play" sets the player's play beside the best, both sums side by side;
//   Bid           each player's bid (tapped from the deck, Jade revealed with it) and points: who wins;
//   End           each player's points, the Priest King who cannot feed, the Calendar: who wins;
//   Trade cards   when each Trade card may be played and what it does.
// The page (kitgen/web/static/solver.js) gives the helpers (kit) and calls what this returns.
"use strict";
window.kitgenSolverView = function (kit) {
  const { el, plural, signed, picture, state, $ } = kit;
  const MAX_STAGE = 8;
  const QUESTIONS = [["turn", "Farm & Build"], ["bid", "Bid"], ["end", "End of game"], ["trade", "Trade cards"]];
  const PLAYERS = 4;
  const fieldOf = (name) => kit.engine.fields.find((f) => f.name === name) || {};
  const DEFAULT_PREFER = fieldOf("prefer").default || "keep_maize_gods";
  let pos;

  function fresh() {
    return { question: "turn", hand: [], population: 7, temples: [], prefer: DEFAULT_PREFER, traded: false,
             trade: [], bids: Array.from({ length: PLAYERS }, () => []), scores: Array(PLAYERS).fill(0),
             traders: [], king: 1, calendar: 1, active: 0, choices: [] };
  }
  pos = fresh();
  let orderCounter = 0;
  const players = () => pos.scores.length;
  const cardOf = (name) => state.cards[name] || {};
  const isTrade = (name) => cardOf(name).type === "trade";
  const pointsText = (n) => signed(n) + " point" + (Math.abs(n) === 1 ? "" : "s");

  function setPlayers(n) {
    n = Math.max(2, Math.min(16, n));
    while (pos.scores.length < n) { pos.scores.push(0); pos.bids.push([]); }
    pos.scores.length = n; pos.bids.length = n;
    pos.traders = pos.traders.filter((p) => p <= n);
    pos.king = Math.min(pos.king, n); pos.calendar = Math.min(pos.calendar, n);
    pos.active = Math.min(pos.active, n - 1);
  }

  // --- the position ---------------------------------------------------------------------------
  function tabs() {
    return el("div", { id: "question-tabs", class: "question-tabs", role: "tablist" }, QUESTIONS.map(([key, label]) =>
      el("button", { role: "tab", "data-question": key, "aria-selected": String(pos.question === key),
                     onclick: () => { if (pos.question !== key) { pos.question = key; kit.changed(); } } }, [label])));
  }

  function cardRow(names, id, label, remove, emptyText) {
    return el("div", { id, class: "hand", "aria-label": label }, names.length ? names.map((name, i) => el("button", {
      class: "card-button", "data-card": name, "aria-label": "Remove " + name, onclick: () => remove(i) },
      [picture(name), el("span", { class: "remove", text: "✕" })])) : [el("p", { class: "hint", text: emptyText })]);
  }

  function turnPanels() {
    const temples = pos.temples.length ? pos.temples.map((top, i) => {
      const select = el("select", { "aria-label": "Top of temple " + (i + 1),
                                    onchange: (e) => { pos.temples[i] = Number(e.target.value); kit.changed(); } },
        Array.from({ length: MAX_STAGE }, (_, k) => el("option", { value: String(k + 1), text: "top " + (k + 1) })));
      select.value = String(top);
      return el("div", { class: "temple", "data-temple": String(i + 1) }, [
        el("span", { class: "temple-name", text: "Temple " + (i + 1) }), select,
        el("button", { class: "small remove-temple", "aria-label": "Remove temple " + (i + 1),
                       onclick: () => { pos.temples.splice(i, 1); kit.changed(); } }, ["✕"])]);
    }) : [el("p", { class: "hint", text: "None yet." })];
    const prefer = el("select", { id: "prefer", "aria-label": "Among plays of equal points, show first",
                                  onchange: (e) => { pos.prefer = e.target.value; kit.changed(); } },
      (fieldOf("prefer").choices || [DEFAULT_PREFER]).map((c) => el("option", { value: c, text: c.replace(/_/g, " ") })));
    prefer.value = pos.prefer;
    const traded = el("input", { id: "traded", type: "checkbox", onchange: (e) => { pos.traded = e.target.checked; kit.changed(); } });
    traded.checked = pos.traded;
    return [
      el("section", { class: "panel" }, [
        el("div", { class: "panel-head" }, [
          el("h2", {}, ["Your hand ", el("span", { id: "hand-count", class: "count", text: plural(pos.hand.length, "card") })]),
          el("button", { id: "clear-hand", class: "small", onclick: () => { pos.hand = []; kit.changed(); } }, ["Clear"])]),
        cardRow(pos.hand, "hand", "Your hand", (i) => { pos.hand.splice(i, 1); kit.changed(); },
                "Tap the cards of your hand in the deck. With no cards there is nothing to farm with.")]),
      el("section", { class: "panel row-panel" }, [
        el("h2", {}, [el("label", { for: "population", text: "Population" })]),
        kit.numberInput("population", "Population", pos.population, 1, 1000, (v) => { pos.population = v; kit.changed(); })]),
      el("section", { class: "panel" }, [
        el("h2", { text: "Temples on the table" }),
        el("div", { id: "temples", class: "temple-list" }, temples),
        el("p", { class: "label", text: "Add a temple with top value:" }),
        el("div", { id: "temple-tops", class: "top-buttons" }, Array.from({ length: MAX_STAGE }, (_, k) => el("button", {
          "data-top": String(k + 1), "aria-label": "Add a temple topped by " + (k + 1),
          onclick: () => { pos.temples.push(k + 1); kit.changed(); } }, [String(k + 1)])))]),
      el("section", { class: "panel options" }, [
        el("label", { class: "switch", for: "prefer" }, [el("span", {}, ["Among plays of equal points, show first", el("br"),
          el("span", { class: "hint", text: "a preference, not a rule" })]), prefer]),
        el("label", { class: "switch", for: "traded" }, [el("span", {}, ["You played a Trade card this round", el("br"),
          el("span", { class: "hint", text: "under special_is_trade, Maize may not feed then" })]), traded])]),
    ];
  }

  function playerNumber(id, label, value, set) {
    const select = el("select", { id, "aria-label": label, onchange: (e) => set(Number(e.target.value)) },
      Array.from({ length: players() }, (_, p) => el("option", { value: String(p + 1), text: "Player " + (p + 1) })));
    select.value = String(value);
    return select;
  }

  function playersPanel() {
    return el("section", { class: "panel row-panel" }, [el("h2", { text: "Players" }),
      kit.numberInput("players", "Players", players(), 2, 16, (n) => { setPlayers(n); kit.changed(); })]);
  }

  function scoreInput(p) {
    const input = el("input", { id: "score-" + (p + 1), type: "number", inputmode: "numeric", class: "score-input",
                                "aria-label": "Points of player " + (p + 1), value: String(pos.scores[p]),
                                onchange: (e) => { const v = Number(e.target.value);
                                  if (e.target.value !== "" && Number.isInteger(v)) { pos.scores[p] = v; kit.changed(); } else e.target.value = String(pos.scores[p]); } });
    return el("label", { class: "score" }, ["points ", input]);
  }

  function bidPanels() {
    const rows = pos.bids.map((bid, p) => {
      const here = pos.active === p;
      const traded = el("input", { type: "checkbox", id: "trader-" + (p + 1),
                                   onchange: (e) => { pos.traders = pos.traders.filter((t) => t !== p + 1);
                                     if (e.target.checked) pos.traders.push(p + 1); kit.changed(); } });
      traded.checked = pos.traders.includes(p + 1);
      return el("div", { class: "bid-row" + (here ? " active" : ""), "data-player": String(p + 1) }, [
        el("div", { class: "panel-head" }, [
          el("h3", { text: "Player " + (p + 1) }),
          el("button", { class: "small", "aria-pressed": String(here), "data-bid-to": String(p + 1),
                         onclick: () => { pos.active = p; kit.changed(); } }, [here ? "Adding here" : "Add here"])]),
        cardRow(bid, "bid-" + (p + 1), "Bid of player " + (p + 1), (i) => { bid.splice(i, 1); kit.changed(); },
                here ? "No cards: tap Bid or God cards (or Jade) in the deck." : "No cards (a bid of 0)."),
        el("div", { class: "bid-extras" }, [scoreInput(p),
          el("label", { class: "check", for: "trader-" + (p + 1) }, [traded, " played a Trade card"])])]);
    });
    return [playersPanel(), el("section", { id: "bids", class: "panel" }, [el("h2", { text: "Bids, revealed together" }), ...rows])];
  }

  function endPanels() {
    const king = el("select", { id: "king", "aria-label": "How the game ends", onchange: (e) => { pos.king = Number(e.target.value); kit.changed(); } },
      [...Array.from({ length: players() }, (_, p) => el("option", { value: String(p + 1), text: "Player " + (p + 1) + " cannot feed (famine)" })),
       el("option", { value: "0", text: "Deck and discard pile ran out" })]);
    king.value = String(pos.king);
    return [playersPanel(), el("section", { id: "end-scores", class: "panel" }, [
      el("h2", { text: "Points before the end" }),
      el("div", { class: "score-list" }, pos.scores.map((_, p) => el("div", { class: "score-row" }, [
        el("span", { text: "Player " + (p + 1) }), scoreInput(p)]))),
      el("label", { class: "switch", for: "king" }, [el("span", { text: "The game ends:" }), king]),
      el("label", { class: "switch", for: "calendar" }, [el("span", { text: "Calendar token with" }),
        playerNumber("calendar", "Calendar holder", pos.calendar, (v) => { pos.calendar = v; kit.changed(); })])])];
  }

  function tradePanels() {
    return [el("section", { class: "panel" }, [
      el("div", { class: "panel-head" }, [
        el("h2", {}, ["Trade cards ", el("span", { class: "count", text: pos.trade.length ? plural(pos.trade.length, "card") : "all" })]),
        el("button", { class: "small", onclick: () => { pos.trade = []; kit.changed(); } }, ["Clear"])]),
      cardRow(pos.trade, "trade", "Trade cards asked about", (i) => { pos.trade.splice(i, 1); kit.changed(); },
              "Tap Trade cards in the deck to ask about them; none asks about all of them.")])];
  }

  function render() {
    const panels = { turn: turnPanels, bid: bidPanels, end: endPanels, trade: tradePanels }[pos.question]();
    $("position").replaceChildren(tabs(), ...panels);
    $("deck-hint").textContent = { turn: "tap a card to add it to your hand", bid: "tap a card to add it to the bid of player " + (pos.active + 1),
                                   end: "not used by this question", trade: "tap a Trade card to ask about it" }[pos.question];
    document.querySelector(".deck-panel").classList.toggle("unused", pos.question === "end");
    for (const id of ["check-mode", "all-best", "advise"]) {
      const button = $(id);
      if (button) button.classList.toggle("off", pos.question !== "turn");
    }
  }

  function listOf() {
    return pos.question === "bid" ? pos.bids[pos.active] : pos.question === "trade" ? pos.trade : pos.question === "turn" ? pos.hand : null;
  }

  const allCards = () => pos.question === "bid" ? pos.bids.flat() : pos.question === "trade" ? pos.trade : pos.question === "turn" ? pos.hand : [];
  const used = (name) => allCards().filter((n) => n === name).length;

  function accepts(name) {
    if (pos.question === "end") return false;
    if (pos.question === "trade") return isTrade(name);
    return true;         // a Trade card in a bid: the answer says which one may go there (the card that wins the bid)
  }

  function add(name) {
    const list = listOf();
    if (!list || !accepts(name) || used(name) >= cardOf(name).count) return;
    if (pos.question === "trade" && list.includes(name)) return;
    list.push(name);
    list.sort((a, b) => state.order.indexOf(a) - state.order.indexOf(b));
    kit.changed();
  }

  function position() {
    if (pos.question === "bid") return { question: "bid", bids: pos.bids, scores: pos.scores, traders: pos.traders.slice().sort((a, b) => a - b) };
    if (pos.question === "end") return { question: "end", scores: pos.scores, king: pos.king, calendar: pos.calendar };
    if (pos.question === "trade") return { question: "trade", hand: pos.trade };
    const out = { hand: pos.hand, population: pos.population, temples: pos.temples };
    if (pos.prefer !== DEFAULT_PREFER) out.prefer = pos.prefer;
    if (pos.traded) out.traded = true;
    return out;
  }

  function restore(f) {
    pos = fresh();
    const q = QUESTIONS.some(([k]) => k === f.question) ? f.question : "turn";
    pos.question = q;
    const names = (list) => (list || []).filter((n) => state.cards[n]);
    if (q === "trade") pos.trade = names(f.hand).filter(isTrade);
    else pos.hand = names(f.hand);
    if (Number.isInteger(f.population) && f.population >= 1) pos.population = Math.min(1000, f.population);
    pos.temples = (f.temples || []).filter((t) => Number.isInteger(t) && t >= 1 && t <= MAX_STAGE);
    if (f.prefer) pos.prefer = f.prefer;
    pos.traded = Boolean(f.traded);
    const n = Math.max(2, Math.min(16, (f.bids || []).length || (f.scores || []).length || PLAYERS));
    setPlayers(n);
    if (f.bids) f.bids.slice(0, n).forEach((b, p) => { pos.bids[p] = names(b); });
    if (f.scores) f.scores.slice(0, n).forEach((s, p) => { pos.scores[p] = Number.isInteger(s) ? s : 0; });
    pos.traders = (f.traders || []).filter((t) => Number.isInteger(t) && t >= 1 && t <= n);
    if (Number.isInteger(f.king) && f.king >= 0 && f.king <= n) pos.king = f.king;
    if (Number.isInteger(f.calendar) && f.calendar >= 1 && f.calendar <= n) pos.calendar = f.calendar;
  }

  function summary() {
    const cards = allCards();
    const label = { turn: "Hand", bid: "Bids", trade: "Trade cards", end: "End of game" }[pos.question];
    const out = [el("span", { class: "bar-label", text: label + (pos.question === "turn" ? " · Population " + pos.population : "") })];
    if (pos.question === "end") out.push(el("span", { class: "hint", text: pos.scores.join(", ") }));
    else if (!cards.length) out.push(el("span", { class: "hint", text: pos.question === "trade" ? "all" : "no cards" }));
    else out.push(...cards.map((name) => el("span", { class: "bar-card", "data-card": name }, [picture(name, { width: 30, height: 42 })])));
    return out;
  }

  // --- drawing answers -----------------------------------------------------------------------------
  function farmPhase(plan, reasons) {
    if (plan.outcome === "famine") return el("div", { class: "phase" }, [el("span", { class: "phase-name", text: "Farm" }),
      el("p", { class: "verdict illegal", text: shown(reasons.farm.text) })]);
    const cards = plan.farm.map((name) => el("div", { class: "play-card", "data-farm": name }, [picture(name)]));
    return el("div", { class: "phase" }, [el("span", { class: "phase-name", text: "Farm" }),
      el("div", { class: "plays" }, cards.concat([el("span", { class: "sum", text: shown(reasons.farm.text) })]))]);
  }

  function buildPhase(plan, reasons) {
    if (plan.outcome === "famine") return null;
    if (!plan.build.length) return el("div", { class: "phase" }, [el("span", { class: "phase-name", text: "Build" }),
      el("p", { class: "no-build", text: reasons.build.text })]);
    const cards = plan.build.map((p, i) => {
      const step = reasons.build.steps[i];
      return el("div", { class: "play-card", "data-build": p.card, "data-value": String(p.value), "data-temple": String(p.temple) },
                [picture(p.card), el("span", { class: "where", text: step.text })]);
    });
    const total = reasons.build.steps.length > 1 ? el("span", { class: "sum", text: reasons.total }) : null;
    return el("div", { class: "phase" }, [el("span", { class: "phase-name", text: "Build" }), el("div", { class: "plays" }, [...cards, total])]);
  }

  function templeRow(before, after) {
    if (!after.length) return null;
    return el("div", { class: "temple-row", "aria-label": "Temples after the play" }, after.map((top, i) => {
      const old = i < before.length ? before[i] : 0;
      const stages = [];
      for (let v = 1; v <= top; v++) stages.push(el("span", { class: "stage" + (v > old ? " new" : ""), text: String(v) }));
      return el("div", { class: "stack" }, [el("span", { class: "caption", text: "temple " + (i + 1) })].concat(stages));
    }));
  }

  function afterOf(before, plan) {
    const tops = before.slice();
    if (plan.outcome !== "built") return tops;
    for (const p of plan.build) { if (p.temple > tops.length) tops.push(p.value); else tops[p.temple - 1] = p.value; }
    return tops;
  }

  function rulingsBlock(rulings) {
    if (!rulings) return null;
    const used = rulings.used.slice().sort((a, b) => a.number - b.number);
    return el("div", { id: "rulings-used", class: "rulings-used" }, [
      el("h3", { text: "Rulings this answer used" }),
      el("ul", {}, used.map((r) => el("li", { class: r.decides ? "decides" : "", "data-ruling": r.name }, [
        el("strong", { text: "Playtest ruling " + r.number + ": " + r.title }), " ", el("code", { text: r.name + "=" + r.value }),
        r.decides ? el("span", { class: "decides-note", text: " decides this answer" }) : null]))),
      rulings.not_used.length ? el("p", { class: "hint not-used", text: "Not used by this question: rulings " +
        rulings.not_used.map((r) => r.number).join(", ") + (rulings.not_used.some((r) => r.changed) ? " (so " +
        rulings.not_used.filter((r) => r.changed).map((r) => r.name + "=" + r.value).join(", ") +
        (rulings.not_used.filter((r) => r.changed).length === 1 ? " changes" : " change") + " nothing here)" : "") + "." }) : null]);
  }

  const shown = (text) => text.replace(/>=/g, "≥");          // the answers' sums, as a page prints them
  const para = (text, cls) => el("p", { class: cls || "", text: shown(text) });

  function showAnswer(data) {
    if (data.question === "bid") return showBid(data);
    if (data.question === "end") return showEnd(data);
    if (data.question === "trade") return showTrade(data);
    const plan = data.plan, reasons = data.reasons;
    const empty = reasons.farm.empty;
    const head = empty ? el("h2", { id: "best-head", text: "Nothing to farm with" })
      : el("h2", { id: "best-head" }, [plan.outcome === "famine" ? "Famine: " : "Best play: ",
          el("span", { class: "points" + (plan.points < 0 ? " negative" : ""), id: "best-points", text: pointsText(plan.points) })]);
    kit.setHeadline(empty ? "Nothing to farm with" : (plan.outcome === "famine" ? "Famine " : "Best ") + pointsText(plan.points) + (plan.outcome === "famine" ? "" : ": " + data.words));
    const children = [head];
    if (!empty && plan.outcome !== "famine") children.push(para(data.words.charAt(0).toUpperCase() + data.words.slice(1) + ".", "play-words"));
    children.push(farmPhase(plan, reasons), buildPhase(plan, reasons), templeRow(data.question.temples, data.temples_after));
    if (data.why_not) children.push(el("div", { id: "why-not", class: "why" }, [shown(data.why_not.text)]));
    if (data.optimal_plays > 1) children.push(el("p", { id: "preference", class: "preference" }, [
      plural(data.optimal_plays, "play") + " score " + pointsText(plan.points) + ": every one is optimal by the rules (All best plays lists them). " +
      "This one comes first by the preference “" + data.preference.name.replace(/_/g, " ") + "”: " + data.preference.text + ". A preference, not a rule."]));
    const deciding = data.rulings.used.filter((r) => r.decides);
    for (const r of deciding) children.push(para("This answer rests on " + r.name + "=" + r.value + " (Playtest ruling " + r.number + ": " + r.title + "): " +
      r.other.map((o) => "with " + r.name + "=" + o.value + " the best play scores " + pointsText(o.points)).join("; ") + ".", "decides-text"));
    children.push(rulingsBlock(data.rulings));
    kit.showResult(children, "best");
    $("result").dataset.play = JSON.stringify(plan);
  }

  function stepsList(steps) {
    return el("ol", { class: "steps" }, steps.map((s) => el("li", { text: s })));
  }

  function underList(under) {
    const items = [];
    for (const [name, options] of Object.entries(under || {})) {
      for (const o of options) {
        const who = o.text ? o.text : o.winners ? (o.winners.length > 1 ? "Players " + o.winners.join(" and ") + " share the victory" : "Player " + o.winners[0] + " wins")
          : o.winner ? "Player " + o.winner + " wins" : "nobody wins";
        items.push(el("li", { class: o.differs ? "differs" : "" }, [el("code", { text: name + "=" + o.value }), ": " + who]));
      }
    }
    return items.length ? el("div", { class: "under" }, [el("h3", { text: "Under the other readings" }), el("ul", {}, items)]) : null;
  }

  function showBid(data) {
    const head = el("h2", { id: "bid-winner", text: data.winner ? "Player " + data.winner + " wins the bid" : "Nobody wins the bid" });
    kit.setHeadline(head.textContent);
    const table = el("table", { class: "bid-table" }, [el("tbody", {}, data.bids.map((cards, p) => el("tr", { class: data.winner === p + 1 ? "winner" : "" }, [
      el("th", { text: "Player " + (p + 1) }),
      el("td", {}, [el("span", { class: "mini-cards" }, [
        ...(data.jades.includes(p + 1) ? [picture(data.jade_names[data.jades.indexOf(p + 1)], { width: 30, height: 42 })] : []),
        ...cards.map((n) => picture(n, { width: 30, height: 42 }))])]),
      el("td", { class: "total", text: cards.length ? String(data.totals[p]) : "0 (no cards)" }),
      el("td", { class: "score", text: data.scores[p] + " pts" })])))]);
    kit.showResult([head, table, stepsList(data.steps), para(data.verdict, "verdict"), underList(data.under), rulingsBlock(data.rulings)], "bid");
  }

  function showEnd(data) {
    const head = el("h2", { id: "end-winner", text: data.verdict });
    kit.setHeadline(data.verdict);
    kit.showResult([head, stepsList(data.steps), underList(data.under), rulingsBlock(data.rulings)], "end");
  }

  function showTrade(data) {
    kit.setHeadline(plural(data.cards.length, "Trade card"));
    const cards = el("div", { class: "trade-list" }, data.cards.map((c) => el("div", { class: "trade-card", "data-card": c.card }, [
      picture(c.card), el("div", {}, [el("h3", { text: c.card + " · " + c.when }), el("p", { text: c.detail })])])));
    kit.showResult([el("h2", { id: "trade-head", text: "When each Trade card is played" }), cards, underList(data.under), rulingsBlock(data.rulings)], "trade");
  }

  function planSummary(plan) {
    return el("div", { class: "plays" }, [...plan.farm.map((n) => el("div", { class: "play-card small", "data-farm": n }, [picture(n), el("span", { class: "where", text: "farm" })])),
      ...plan.build.map((p) => el("div", { class: "play-card small", "data-build": p.card }, [picture(p.card), el("span", { class: "where", text: p.value + " on temple " + p.temple })]))]);
  }

  function showAll(data) {
    const plays = data.plays || data;
    const words = data.words || [];
    kit.setHeadline(plural(plays.length, "best play") + ", " + pointsText(plays[0].points) + " each");
    const head = el("h2", { text: plural(plays.length, "best play") + ", " + pointsText(plays[0].points) + " each" });
    const pref = data.preference ? para("Every play with the most points is optimal by the rules. Listed in the order of the preference " +
      data.preference.name.replace(/_/g, " ") + " (" + data.preference.text + "), a preference, not a rule.", "preference") : null;
    const list = el("ol", { class: "all-plays" }, plays.map((plan, i) =>
      el("li", {}, [para(words[i] || "", "play-words"), planSummary(plan), templeRow(pos.temples, afterOf(pos.temples, plan))])));
    kit.showResult([head, pref, list], "all");
  }

  // --- checking a play of one's own -------------------------------------------------------------
  function openCheck(panel) {
    panel.replaceChildren(
      el("h2", { text: "Your play" }),
      el("p", { class: "hint", text: "For each card, choose Farm or Build. Build cards are laid in the order you choose them." }),
      el("div", { id: "check-cards", class: "check-cards" }),
      el("p", { class: "play-text" }, [el("code", { id: "play-text" })]),
      el("button", { id: "check", class: "primary", onclick: () => kit.checkPlay(playText()) }, ["Check this play"]));
    renderCheck();
  }

  function renderCheck() {
    if (!$("check-cards")) return;
    pos.choices = pos.hand.map((name, i) => pos.choices[i] && pos.choices[i].name === name ? pos.choices[i]
      : { name, role: "keep", temple: "new", value: 1, order: 0 });
    const templeOptions = () => pos.temples.map((top, i) => [String(i + 1), "temple " + (i + 1) + " (top " + top + ")"])
      .concat([["new", "a new temple"]]);
    $("check-cards").replaceChildren(...pos.choices.map((choice) => {
      const god = cardOf(choice.name).type === "god";
      const roles = ["keep", "farm", "build"].map((role) => el("button", {
        "aria-pressed": String(choice.role === role), "data-role": role,
        onclick: () => { choice.role = role; choice.order = ++orderCounter; renderCheck(); } }, [role[0].toUpperCase() + role.slice(1)]));
      const extra = [];
      if (choice.role === "build") {
        const where = el("select", { "aria-label": "Temple for " + choice.name, onchange: (e) => { choice.temple = e.target.value; playText(); } },
          templeOptions().map(([v, label]) => el("option", { value: v, text: label })));
        where.value = choice.temple;
        extra.push(where);
        if (god) {
          const value = el("select", { "aria-label": "Value of " + choice.name, onchange: (e) => { choice.value = Number(e.target.value); playText(); } },
            Array.from({ length: MAX_STAGE }, (_, k) => el("option", { value: String(k + 1), text: "as a " + (k + 1) })));
          value.value = String(choice.value);
          extra.push(value);
        }
      }
      return el("div", { class: "check-card" }, [picture(choice.name), el("div", { class: "choices" }, roles.concat(extra))]);
    }));
    playText();
  }

  function playText() {
    const farm = pos.choices.filter((c) => c.role === "farm").map((c) => c.name);
    const build = pos.choices.filter((c) => c.role === "build").sort((a, b) => a.order - b.order)
      .map((c) => c.name + (cardOf(c.name).type === "god" ? "=" + c.value : "") + "@" + c.temple);
    const text = "farm " + (farm.join(", ") || "none") + "; build " + (build.join(", ") || "none");
    if ($("play-text")) $("play-text").textContent = text;
    return text;
  }

  function reasonsBlock(title, plan, reasons, words, id) {
    return el("div", { class: "side-by-side-column", id }, [el("h3", { text: title + ": " + pointsText(plan.points) }),
      para(words.charAt(0).toUpperCase() + words.slice(1) + ".", "play-words"), farmPhase(plan, reasons), buildPhase(plan, reasons)]);
  }

  function showChecked(data) {
    const verdict = data.legal
      ? (data.optimal ? "Legal, and one of the best plays" : "Legal, " + plural(data.gap, "point") + " less than the best")
      : "Illegal: " + data.reason;
    kit.setHeadline(verdict);
    const children = [el("h2", { class: "verdict " + (data.legal ? "legal" : "illegal"), id: "verdict", text: verdict })];
    if (data.ruling) children.push(para("The ruling that decides it is " + data.ruling.name + "=" + data.ruling.value + " (" + data.ruling.label +
      "): with " + data.ruling.name + "=" + data.ruling.legal_with + " the play would be legal.", "decides-text"));
    const columns = [];
    if (data.legal) columns.push(reasonsBlock("Your play", data.play, data.play_reasons, data.play_words, "your-play"));
    else if (data.nearest) columns.push(reasonsBlock("Nearest legal play, with your Farm", data.nearest, data.nearest_reasons, data.nearest_words, "nearest-play"));
    columns.push(reasonsBlock("Best play", data.best, data.best_reasons, data.best_words, "best-play"));
    children.push(el("div", { class: "side-by-side" }, columns));
    if (data.compare) children.push(para(data.compare + (data.optimal && data.play && JSON.stringify(data.play) !== JSON.stringify(data.best)
      ? ": both are optimal by the rules; the solver shows the other first by the preference " + data.preference.name.replace(/_/g, " ") + " (a preference, not a rule)." : "."), "compare"));
    children.push(templeRow(pos.temples, afterOf(pos.temples, data.best)));
    kit.showResult(children, "check");
  }

  return {
    render, used, add, accepts, position, restore, summary, showAnswer, showAll, openCheck, renderCheck, showChecked,
    play: playText,
  };
};
