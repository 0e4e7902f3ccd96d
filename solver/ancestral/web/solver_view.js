// Ancestral's view on kitgen's solver page: the players in the round, your hand tapped together from the
// deck, and the table as huts: each hut's leaves, its defenses (tap a defense's picture to lay it or
// take it away) and, for the other players, whether they hold a Hunuc-Huar.  The answer draws the best
// actions and the ranked list with the cards' own pictures.  The page (kitgen/web/static/solver.js) gives
// the helpers (kit) and calls what this returns; the rest is the page's generic view.  The huts' look is
// solver_view.css beside it.
"use strict";
window.kitgenSolverView = function (kit) {
  const { el, plural, picture, state, $, showResult } = kit;
  const view = kit.genericView();
  const values = view.values;
  const field = (name) => view.fields.find((f) => f.name === name);
  const leavesField = field("leaves"), handField = field("hand");
  const defenses = field("defenses").choices || [];
  const hunucCard = field("hunuc").card;
  const players = () => Number(values.players);
  const SHOWN = 8;
  let built = false;
  function hutName(p) { return p === 0 ? "Your hut" : "Player " + (p + 1); }

  function hut(p) {
    const leaves = values.leaves;
    while (leaves.length <= p) leaves.push(0);
    while (values.defenses.length <= p) values.defenses.push([]);
    const laid = values.defenses[p];
    const most = leavesField.max;
    const step = (by) => { leaves[p] = Math.min(most, Math.max(0, leaves[p] + by)); kit.changed(); };
    const dots = [];
    for (let i = 0; i < most + 1; i++) dots.push(el("span", { class: "leaf" + (i < leaves[p] ? " on" : "") + (i === most ? " last" : "") }));
    const toggles = defenses.map((name) => {
      const on = laid.includes(name);
      return el("button", { class: "card-button toggle", "aria-pressed": String(on), "data-defense": name,
                            "aria-label": (on ? "Take away " : "Lay ") + name + " (" + hutName(p).toLowerCase() + ")",
                            onclick: () => { if (on) laid.splice(laid.indexOf(name), 1); else laid.push(name); kit.changed(); } },
                    [picture(name, { width: 44, height: 62 })]);
    });
    const row = [
      el("div", { class: "hut-head" }, [el("strong", { text: hutName(p) }),
        el("span", { class: "leaves", "aria-label": plural(leaves[p], "leaf").replace("leafs", "leaves") }, dots)]),
      el("div", { class: "hut-body" }, [
        el("div", { class: "stepper small-stepper" }, [
          el("button", { class: "small", "aria-label": "Fewer leaves in " + hutName(p).toLowerCase(), onclick: () => step(-1) }, ["−"]),
          el("output", { "data-leaves": String(p + 1), text: leaves[p] + (leaves[p] === 1 ? " leaf" : " leaves") }),
          el("button", { class: "small", "aria-label": "More leaves in " + hutName(p).toLowerCase(), onclick: () => step(1) }, ["+"])]),
        el("div", { class: "defense-toggles" }, toggles)])];
    if (p > 0 && hunucCard) {
      const on = values.hunuc.includes(p + 1);
      row.push(el("button", { class: "hunuc-toggle", "aria-pressed": String(on), "data-hunuc": String(p + 1),
                              onclick: () => { if (on) values.hunuc.splice(values.hunuc.indexOf(p + 1), 1); else values.hunuc.push(p + 1); kit.changed(); } },
                      [picture(hunucCard, { width: 32, height: 45 }), on ? "Holds a " + hunucCard : "Holds no " + hunucCard]));
    }
    return el("div", { class: "hut", "data-hut": String(p + 1) }, row);
  }

  function render() {
    const n = players();
    values.hunuc = values.hunuc.filter((p) => p <= n);
    $("position").replaceChildren(
      view.widget(field("players")),
      view.widget(handField),
      el("section", { class: "panel huts", "data-field": "huts" }, [
        el("h2", { text: "The huts" }),
        el("p", { class: "hint", text: "Leaves, defenses laid (tap a defense to lay it) and who could cancel an attack." }),
        ...Array.from({ length: n }, (_, p) => hut(p))]));
    built = true;
  }

  function position() {
    const n = players();
    return { players: n, hand: values.hand, leaves: values.leaves.slice(0, n),
             defenses: values.defenses.slice(0, n), hunuc: values.hunuc.slice().sort() };
  }

  function used(name) {
    return values.hand.filter((x) => x === name).length + values.defenses.slice(0, players()).filter((l) => l.includes(name)).length;
  }

  function add(name) {
    if (used(name) >= state.cards[name].count || values.hand.length >= handField.max) return;
    values.hand.push(name);
    values.hand.sort((a, b) => state.order.indexOf(a) - state.order.indexOf(b));
    kit.changed();
  }

  function actionBlock(entry) {
    return el("div", { class: "best-play" }, [
      el("p", { class: "play-words", text: entry.action }),
      el("div", { class: "plays" }, kit.cardsIn(entry.action).map((name) => el("div", { class: "play-card", "data-card": name }, [picture(name)]))),
      el("p", { class: "effect", text: entry.effect })]);
  }

  function ranked(actions) {
    return el("ol", { class: "ranked" }, actions.slice(0, SHOWN).map((a) => el("li", { "data-rank": String(a.rank) }, [
      el("div", {}, [el("span", { text: a.action }), el("span", { class: "effect", text: " — " + a.effect })]),
      el("span", { class: "mini-cards" }, kit.cardsIn(a.action).map((name) => picture(name, { width: 36, height: 50 })))])));
  }

  function showAnswer(data) {
    const best = data.actions.filter((a) => data.best.includes(a.action));
    const parts = [el("h2", { id: "best-head", text: best.length > 1 ? "Best actions" : "Best action" }), ...best.map(actionBlock)];
    const why = data.lines.find((line) => line.startsWith("Why"));
    if (why) parts.push(el("p", { class: "why", text: why }));
    parts.push(el("h3", { text: "Every legal action, best first (" + data.actions.length + ")" }), ranked(data.actions));
    if (data.actions.length > SHOWN) parts.push(el("p", { class: "hint", text: "… and " + (data.actions.length - SHOWN) + " more." }));
    parts.push(el("p", { class: "hint", text: data.measure }));
    kit.setHeadline(best.length ? best[0].action : "");
    showResult(parts, "best");
  }

  function showAll(data) {
    showResult([el("h2", { text: plural(data.actions.length, "best action") }), ...data.actions.map(actionBlock)], "all");
  }

  function showChecked(data) {
    const verdict = !data.legal ? "Illegal: " + data.reason : data.optimal ? "Legal, and one of the best actions" : "Legal, not the best action";
    const parts = [el("h2", { class: "verdict " + (data.legal ? "legal" : "illegal"), id: "verdict", text: verdict })];
    if (data.effect) parts.push(actionBlock(data.effect));
    parts.push(view.lines(data));
    kit.setHeadline(verdict);
    showResult(parts, "check");
  }

  // the sticky bar on a phone: your hand in small pictures
  function summary() {
    return values.hand.length ? values.hand.map((name) => picture(name, { width: 32, height: 45 }))
      : [el("span", { class: "hint", text: "No cards yet" })];
  }

  return Object.assign(view, { render, position, used, add, summary, showAnswer, showAll, showChecked, built: () => built });
};
