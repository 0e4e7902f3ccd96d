// Temple of Inscriptions' view on kitgen's solver page.  The position is the page's generic one (the
// level, every player's hand tapped together from the deck, the swap zone, the first player, the
// summoner, the objective); this view draws the answer with the cards' own pictures: whether the level
// can be completed this round and with whose cards, the construction when each plays for the objective,
// and who should summon.  "Check my play" builds each player's set with steppers.  The page
// (kitgen/web/static/solver.js) gives the helpers (kit) and calls what this returns.
"use strict";
window.kitgenSolverView = function (kit) {
  const { el, plural, signed, picture, state, $, showResult } = kit;
  const view = kit.genericView();
  const values = view.values;
  const hands = view.fields.find((f) => f.name === "hands");
  const players = () => view.playersOf(hands);
  const who = (p) => "Player " + (p + 1);
  // a rule number as the page plays it: switched on the page, else the game's
  const rule = (name) => Number(state.rules[name] ?? (kit.switches.find((s) => s.name === name) || {}).default);
  let check = [];                       // [cards, pairs] of each player, by player

  // The name of the construction card of a level, and of the jewel, from the deck.
  const levelCard = (level) => (Object.values(state.cards).find((c) => c.type === "construction" &&
                                                                 String(c.value) === String(level)) || {}).name;
  const jewelCard = () => (Object.values(state.cards).find((c) => c.type === "jewel") || {}).name;

  // A row of card pictures: a player's set, each pair of jewels drawn as its cards.
  function setPictures(names, cards, pairs, perPair) {
    const out = [];
    for (let i = 0; i < cards; i++) out.push(picture(names.level, { width: 56, height: 78 }));
    for (let i = 0; i < pairs * perPair; i++) out.push(picture(names.jewel, { width: 56, height: 78 }));
    return out.length ? out : [el("span", { class: "hint", text: "nothing" })];
  }

  function setRow(label, names, set, perPair, extra) {
    return el("div", { class: "set-row" }, [
      el("div", { class: "who" }, [el("strong", { text: label }), extra || ""]),
      el("div", { class: "mini-cards set-cards" }, setPictures(names, set.cards, set.pairs, perPair))]);
  }

  function gainsRow(gains) {
    return el("p", { class: "gains" }, [el("span", { class: "hint", text: "Points this round:" }), ...gains.map((g, p) =>
      el("span", { class: "gain" + (g < 0 ? " negative" : g > 0 ? " positive" : "") }, [who(p) + " " + signed(g)]))]);
  }

  function swapRow(swap, p) {
    return el("div", { class: "set-row" }, [
      el("div", { class: "who" }, [el("strong", { text: who(p) }), " swaps"]),
      el("div", { class: "mini-cards set-cards" }, [picture(swap.give, { width: 56, height: 78 }),
        el("span", { class: "arrow", text: "→ zone, takes" }), picture(swap.take, { width: 56, height: 78 })])]);
  }

  function showAnswer(data) {
    const names = data.cards, perPair = data.cards.jewels_per_card;
    const n = data.outcome.sets.length;
    const c = data.completion;
    const parts = [el("h2", { id: "best-head", text: "Best for " + who(data.player - 1).toLowerCase() + " now" }),
      el("div", { class: "best-play" }, [el("p", { class: "play-words", text: data.best[0] })])];
    // can the level be completed this round, everyone helping?
    const canHead = el("h3", { text: "Can level " + values.level + " (" + names.level + ") be completed this round?" });
    parts.push(canHead);
    if (c.possible) {
      parts.push(el("p", { class: "verdict legal", text: "Yes, every player helping" +
        (c.swaps.some(Boolean) ? ", with " + plural(c.swaps.filter(Boolean).length, "swap") : "") + ":" }));
      c.swaps.forEach((s, p) => { if (s) parts.push(swapRow(s, p)); });
      for (let i = 0; i < n; i++) {
        const p = (c.summoner - 1 + i) % n;
        parts.push(setRow(who(p), names, c.sets[p], perPair, i === 0 ? " summons and sets" : " sets"));
      }
    } else {
      parts.push(el("p", { class: "verdict illegal", text: "No: at most " + plural(c.most_cards, "card") + " of the level can be set." }));
    }
    // the construction when every player plays for the objective
    const o = data.outcome;
    parts.push(el("h3", { text: "When each plays for " + (data.objective === "margin" ? "their margin" : "their own points") }));
    if (o.summoner === null) {
      parts.push(el("p", { text: "Nobody summons: it serves no one." }));
    } else {
      for (let i = 0; i < n; i++) {
        const p = (o.summoner - 1 + i) % n;
        parts.push(setRow(who(p), names, o.sets[p], perPair, i === 0 ? " summons and sets" : " sets"));
      }
      parts.push(el("p", { class: "verdict " + (o.completed ? "legal" : "illegal"),
                           text: o.completed ? "The level is completed." : "The level is not completed." }));
    }
    parts.push(gainsRow(o.gains));
    // who should summon
    parts.push(el("h3", { text: "Who should summon" }));
    parts.push(el("p", { class: "hint", text: "Each player's points this round if they summon, the others playing for theirs:" }));
    parts.push(el("table", { class: "summoners" }, [el("tbody", {}, data.summoners.map((s, p) => el("tr", { "data-summoner": String(p + 1) }, [
      el("td", { text: who(p) }),
      s === null ? el("td", { colspan: "2", class: "hint", text: "cannot summon: no card to set" })
        : el("td", { class: "gain" + (s.gains[p] < 0 ? " negative" : s.gains[p] > 0 ? " positive" : ""), text: signed(s.gains[p]) }),
      s === null ? "" : el("td", { class: "hint", text: s.completed ? "completed" : "not completed" })])))]));
    parts.push(el("details", { class: "in-words" }, [el("summary", { text: "In words" }), view.lines(data)]));
    kit.setHeadline(who(data.player - 1) + ": " + (data.best[0] || ""));
    showResult(parts, "best");
  }

  // --- check my play: each player's set, in turn from the summoner ----------------------------
  function stepper(label, get, set, most) {
    return el("div", { class: "stepper small-stepper" }, [
      el("button", { class: "small", "aria-label": label + " fewer", onclick: () => { set(Math.max(0, get() - 1)); renderCheck(); } }, ["−"]),
      el("output", { text: get() + " " + label }),
      el("button", { class: "small", "aria-label": label + " more", onclick: () => { set(Math.min(most, get() + 1)); renderCheck(); } }, ["+"])]);
  }

  function renderCheck() {
    const panel = $("check-panel");
    const n = players();
    while (check.length < n) check.push([0, 0]);
    check.length = n;
    const summoner = Number(values.summoner);
    const level = Number(values.level);
    const names = { level: levelCard(level), jewel: jewelCard() };
    if (!summoner) {
      panel.replaceChildren(el("h2", { text: "Your play" }),
        el("p", { class: "hint", text: "A play is checked for a summoner: set the Summoner above (1 to " + n + ")." }));
      return;
    }
    const rows = [];
    for (let i = 0; i < n; i++) {
      const p = (summoner - 1 + i) % n;
      const set = check[p];
      rows.push(el("div", { class: "check-set", "data-player": String(p + 1) }, [
        el("div", { class: "who" }, [el("strong", { text: who(p) }), i === 0 ? " (summoner)" : ""]),
        stepper(names.level || "level cards", () => set[0], (v) => { set[0] = v; }, rule("max_cards_per_player")),
        stepper("jewel pairs", () => set[1], (v) => { set[1] = v; }, rule("max_cards_per_player")),
        el("div", { class: "mini-cards" }, setPictures(names, set[0], set[1], rule("jewels_per_card")))]));
    }
    panel.replaceChildren(el("h2", { text: "Your play" }),
      el("p", { class: "hint", text: "The cards each player sets, in turn from the summoner." }), ...rows,
      el("div", { class: "actions" }, [el("button", { id: "check", class: "primary", onclick: () => kit.checkPlay(playText()) },
                                          ["Check this play"])]));
  }

  // The play the steppers set, as --play writes it; null without a summoner.
  function playText() {
    const n = players(), summoner = Number(values.summoner), level = Number(values.level);
    if (!summoner || summoner > n) return null;
    while (check.length < n) check.push([0, 0]);
    const parts = [];
    for (let i = 0; i < n; i++) {
      const [c, q] = check[(summoner - 1 + i) % n];
      const items = [];
      if (c) items.push(c + " " + (levelCard(level) || String(level)));
      if (q) items.push(q + " pair");
      parts.push(items.join(", ") || "nothing");
    }
    return parts.join("; ");
  }

  function showChecked(data) {
    const verdict = data.legal ? (data.shortfalls.length ? "Legal, but not every set is the player's best" : "Legal, and every set is the player's best")
      : "Illegal: " + data.reason;
    const parts = [el("h2", { class: "verdict " + (data.legal ? "legal" : "illegal"), id: "verdict", text: verdict })];
    if (data.legal) parts.push(el("p", { text: data.completed ? "The level is completed." : "The level is not completed." }), gainsRow(data.gains));
    parts.push(view.lines(data));
    kit.setHeadline(verdict);
    showResult(parts, "check");
  }

  return Object.assign(view, {
    showAnswer,
    openCheck() { renderCheck(); },
    renderCheck,
    showChecked,
    play: playText,
  });
};
