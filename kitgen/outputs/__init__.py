"""Writing it out: the kit (cards.pdf, rules.pdf, aids.pdf, manifest.json) and the exports.

Every file is written atomically; the same input gives byte-identical files.
"""
