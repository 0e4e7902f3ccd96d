// Altun Ha's view on kitgen's solver page: a hand tapped together from the deck, the Population and
// the temples on the table; the best Farm and Build drawn with the cards' own pictures and the temples
// after it; "check my play" by choosing Farm or Build for each card.  The page (kitgen/web/static/
// solver.js) gives the helpers (kit) and calls what this returns.
"use strict";
window.kitgenSolverView = function (kit) {
  const { el, plural, signed, picture, state, $ } = kit;
  const MAX_STAGE = 8;
  const pos = { hand: [], population: 7, temples: [], choices: [] };
  let built = false;
  let orderCounter = 0;
  const godValue = () => (state.rules.god_value ?? kit.switches.find((s) => s.name === "god_value").default);

  // --- the position: hand, Population, temples -------------------------------------------------
  function build() {
    $("position").replaceChildren(
      el("section", { class: "panel" }, [
        el("div", { class: "panel-head" }, [
          el("h2", {}, ["Your hand ", el("span", { id: "hand-count", class: "count", text: "0 cards" })]),
          el("button", { id: "clear-hand", class: "small", onclick: () => { pos.hand = []; kit.changed(); } }, ["Clear"])]),
        el("div", { id: "hand", class: "hand", "aria-label": "Your hand" })]),
      el("section", { class: "panel row-panel" }, [
        el("h2", { text: "Population" }),
        el("div", { class: "stepper" }, [
          el("button", { id: "pop-down", "aria-label": "Population down",
                         onclick: () => { pos.population = Math.max(1, pos.population - 1); kit.changed(); } }, ["−"]),
          el("output", { id: "population", text: "7" }),
          el("button", { id: "pop-up", "aria-label": "Population up",
                         onclick: () => { pos.population = Math.min(1000, pos.population + 1); kit.changed(); } }, ["+"])])]),
      el("section", { class: "panel" }, [
        el("h2", { text: "Temples on the table" }),
        el("div", { id: "temples", class: "temples" }),
        el("p", { class: "label", text: "Add a temple with top value:" }),
        el("div", { id: "temple-tops", class: "top-buttons" }, Array.from({ length: MAX_STAGE }, (_, k) => el("button", {
          "data-top": String(k + 1), "aria-label": "Add a temple topped by " + (k + 1),
          onclick: () => { pos.temples.push(k + 1); kit.changed(); } }, [String(k + 1)])))]));
    built = true;
  }

  function render() {
    if (!built) build();
    const hand = $("hand");
    $("hand-count").textContent = plural(pos.hand.length, "card");
    if (!pos.hand.length) {
      hand.replaceChildren(el("p", { class: "hint", text: "Tap cards in the deck to add them." }));
    } else {
      hand.replaceChildren(...pos.hand.map((name, i) => el("button", {
        class: "card-button", "data-card": name, "aria-label": "Remove " + name,
        onclick: () => { pos.hand.splice(i, 1); kit.changed(); } },
        [picture(name), el("span", { class: "remove", text: "✕" })])));
    }
    $("population").textContent = pos.population;
    const box = $("temples");
    if (!pos.temples.length) { box.replaceChildren(el("p", { class: "hint", text: "None yet." })); return; }
    box.replaceChildren(...pos.temples.map((top, i) => el("button", {
      class: "temple-chip", "aria-label": "Remove temple " + (i + 1) + " (top " + top + ")",
      onclick: () => { pos.temples.splice(i, 1); kit.changed(); } },
      [el("span", { class: "temple-top", text: String(top) }), el("span", { class: "which", text: "temple " + (i + 1) + " ✕" })])));
  }

  const used = (name) => pos.hand.filter((n) => n === name).length;

  function add(name) {
    if (used(name) >= state.cards[name].count) return;
    pos.hand.push(name);
    pos.hand.sort((a, b) => state.order.indexOf(a) - state.order.indexOf(b));
    kit.changed();
  }

  // --- drawing plays ----------------------------------------------------------------------------
  function pointsText(n) { return signed(n) + " point" + (Math.abs(n) === 1 ? "" : "s"); }

  function farmPhase(plan, farmValue) {
    if (plan.outcome === "famine") {
      return el("p", { class: "verdict illegal", text: "Famine: no Farm is possible, the game ends." });
    }
    const cards = plan.farm.map((name) => el("div", { class: "play-card", "data-farm": name }, [picture(name)]));
    let sum;
    if (farmValue === null || farmValue === undefined) {
      sum = plan.farm.length === 1 && state.cards[plan.farm[0]].type === "trade" ? plan.farm[0] + " pays any amount" : "";
    } else {
      const values = plan.farm.map((n) => (state.cards[n].type === "god" ? godValue() : Number(state.cards[n].value)));
      sum = values.join(" + ") + " = " + farmValue + " ≥ Population " + pos.population;
    }
    return el("div", { class: "phase" }, [el("span", { class: "phase-name", text: "Farm" }),
      el("div", { class: "plays" }, cards.concat([el("span", { class: "sum", text: sum })]))]);
  }

  function buildPhase(plan, before) {
    if (plan.outcome === "famine") return el("span");
    if (!plan.build.length) {
      const why = plan.outcome === "unable_to_build" ? "Nothing can be placed" : "Lay nothing";
      return el("div", { class: "phase" }, [el("span", { class: "phase-name", text: "Build" }),
        el("p", { text: why + " (" + pointsText(plan.points) + ")." })]);
    }
    const tops = before.slice();
    const cards = plan.build.map((p) => {
      const god = state.cards[p.card].type === "god";
      let where;
      if (p.temple > tops.length) { where = (god ? "as a " + p.value + ", " : "") + "starts temple " + p.temple; tops.push(p.value); }
      else { where = (god ? "as a " + p.value + " " : "") + "on temple " + p.temple + " (top " + tops[p.temple - 1] + ")"; tops[p.temple - 1] = p.value; }
      return el("div", { class: "play-card", "data-build": p.card, "data-value": String(p.value), "data-temple": String(p.temple) },
                [picture(p.card), el("span", { class: "where", text: where })]);
    });
    return el("div", { class: "phase" }, [el("span", { class: "phase-name", text: "Build" }), el("div", { class: "plays" }, cards)]);
  }

  function templeRow(before, after) {
    if (!after.length) return el("span");
    return el("div", { class: "temple-row", "aria-label": "Temples after the play" }, after.map((top, i) => {
      const old = i < before.length ? before[i] : 0;
      const stages = [];
      for (let v = 1; v <= top; v++) stages.push(el("span", { class: "stage" + (v > old ? " new" : ""), text: String(v) }));
      return el("div", { class: "stack" }, [el("span", { class: "caption", text: "temple " + (i + 1) })].concat(stages));
    }));
  }

  const planBlock = (plan, farmValue, before) => [farmPhase(plan, farmValue), buildPhase(plan, before)];

  function afterOf(before, plan) {
    const tops = before.slice();
    if (plan.outcome !== "built") return tops;
    for (const p of plan.build) { if (p.temple > tops.length) tops.push(p.value); else tops[p.temple - 1] = p.value; }
    return tops;
  }

  function showAnswer(data) {
    const plan = data.plan;
    const head = el("h2", {}, ["Best play: ", el("span", { class: "points" + (plan.points < 0 ? " negative" : ""),
                                                          id: "best-points", text: pointsText(plan.points) })]);
    const why = el("p", { class: "why" }, [el("strong", { text: "Why: " }), data.why + "."]);
    if (data.next_best) why.append(el("br"), "Next best: " + pointsText(data.next_best.points) + " — " + data.next_play);
    kit.showResult([head].concat(planBlock(plan, data.farm_value, data.question.temples),
      [templeRow(data.question.temples, data.temples_after), why]), "best");
    $("result").dataset.play = JSON.stringify(plan);
  }

  function showAll(plans) {
    const head = el("h2", { text: plural(plans.length, "best play") + ", " + pointsText(plans[0].points) + " each" });
    const list = el("ol", { class: "all-plays" }, plans.map((plan) =>
      el("li", {}, planBlock(plan, null, pos.temples).concat([templeRow(pos.temples, afterOf(pos.temples, plan))]))));
    kit.showResult([head, list], "all");
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
      const god = state.cards[choice.name].type === "god";
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
      .map((c) => c.name + (state.cards[c.name].type === "god" ? "=" + c.value : "") + "@" + c.temple);
    const text = "farm " + (farm.join(", ") || "none") + "; build " + (build.join(", ") || "none");
    $("play-text").textContent = text;
    return text;
  }

  function showChecked(data) {
    const verdict = data.legal
      ? (data.optimal ? "Legal, and one of the best plays" : "Legal, " + (data.gap ? plural(data.gap, "point") + " less than the best" : "as many points as the best, but it spends more on Farm"))
      : "Illegal: " + data.reason;
    const children = [el("h2", { class: "verdict " + (data.legal ? "legal" : "illegal"), id: "verdict", text: verdict })];
    if (data.play) children.push(el("p", { text: "Your play scores " + pointsText(data.play.points) + "." }), ...planBlock(data.play, null, pos.temples));
    children.push(el("h2", { text: "Best play: " + pointsText(data.best.points) }), ...planBlock(data.best, null, pos.temples),
                  templeRow(pos.temples, afterOf(pos.temples, data.best)));
    kit.showResult(children, "check");
  }

  return {
    render, used, add, showAnswer, showAll, openCheck, renderCheck, showChecked,
    position: () => ({ hand: pos.hand, population: pos.population, temples: pos.temples }),
  };
};
