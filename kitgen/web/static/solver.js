// The solver page: tap cards into a hand, set Population and temples, ask the server's solver
// (POST /api/explain, /api/all, /api/check) and draw the answer with the cards' own pictures.
"use strict";
(function () {
  const root = document.querySelector(".solver");
  const game = root.dataset.game;
  const switches = JSON.parse(root.dataset.switches);
  const $ = (id) => document.getElementById(id);
  const banner = $("error-banner");
  const MAX_STAGE = 8;
  const state = { hand: [], population: 7, temples: [], rules: {}, cards: {}, order: [], checking: false, choices: [] };

  function el(tag, attrs, children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "text") node.textContent = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v);
    }
    for (const child of children || []) node.append(child);
    return node;
  }
  const plural = (n, word) => n + " " + word + (n === 1 ? "" : "s");
  const signed = (n) => (n > 0 ? "+" : n < 0 ? "−" : "±") + Math.abs(n);
  const godValue = () => (state.rules.god_value ?? switches.find((s) => s.name === "god_value").default);

  function showError(message) {
    banner.hidden = !message;
    banner.textContent = message ? "Error: " + message : "";
  }

  function picture(name, extra) {
    const card = state.cards[name];
    return el("img", Object.assign({ src: card.image, alt: name, width: 110, height: 154 }, extra || {}));
  }

  // --- deck and hand ---------------------------------------------------------------------
  function inHand(name) { return state.hand.filter((n) => n === name).length; }

  function renderDeck() {
    const groups = {};
    for (const name of state.order) {
      const card = state.cards[name];
      (groups[card.type_label] = groups[card.type_label] || []).push(card);
    }
    const parts = [];
    for (const [label, cards] of Object.entries(groups)) {
      parts.push(el("h3", { text: label }));
      parts.push(el("div", { class: "group" }, cards.map((card) => {
        const n = inHand(card.name);
        const button = el("button", { class: "card-button", "data-card": card.name, "aria-label": "Add " + card.name,
                                      onclick: () => addCard(card.name) }, [picture(card.name)]);
        if (n) button.append(el("span", { class: "badge", text: "×" + n }));
        if (n >= card.count) button.disabled = true;
        return el("div", {}, [button, el("div", { class: "label", text: card.name + (card.value ? " · " + card.value : "") })]);
      })));
    }
    $("deck").replaceChildren(...parts);
  }

  function renderHand() {
    const hand = $("hand");
    $("hand-count").textContent = plural(state.hand.length, "card");
    if (!state.hand.length) {
      hand.replaceChildren(el("p", { class: "hint", text: "Tap cards in the deck to add them." }));
    } else {
      hand.replaceChildren(...state.hand.map((name, i) => el("button", {
        class: "card-button", "data-card": name, "aria-label": "Remove " + name, onclick: () => removeCard(i) },
        [picture(name), el("span", { class: "remove", text: "✕" })])));
    }
  }

  function addCard(name) {
    if (inHand(name) >= state.cards[name].count) return;
    state.hand.push(name);
    state.hand.sort((a, b) => state.order.indexOf(a) - state.order.indexOf(b));
    changed();
  }
  function removeCard(i) { state.hand.splice(i, 1); changed(); }

  // --- Population, temples, rulings ------------------------------------------------------
  function renderPopulation() { $("population").textContent = state.population; }

  function renderTemples() {
    const box = $("temples");
    if (!state.temples.length) { box.replaceChildren(el("p", { class: "hint", text: "None yet." })); return; }
    box.replaceChildren(...state.temples.map((top, i) => el("button", {
      class: "temple-chip", "aria-label": "Remove temple " + (i + 1) + " (top " + top + ")",
      onclick: () => { state.temples.splice(i, 1); changed(); } },
      [el("span", { class: "temple-top", text: String(top) }), el("span", { class: "which", text: "temple " + (i + 1) + " ✕" })])));
  }

  function renderTopButtons() {
    const tops = [];
    for (let v = 1; v <= MAX_STAGE; v++) {
      tops.push(el("button", { "data-top": String(v), "aria-label": "Add a temple topped by " + v,
                               onclick: () => { state.temples.push(v); changed(); } }, [String(v)]));
    }
    $("temple-tops").replaceChildren(...tops);
  }

  // The game's rulings, as the rulebook prints them, then the rule numbers of a turn.
  function renderSwitches() {
    const rulings = switches.filter((s) => s.kind !== "number");
    const numbers = switches.filter((s) => s.kind === "number");
    const ruling = (s) => {
      const id = "rule-" + s.name;
      const meaning = el("p", { class: "meaning" });
      const show = (value) => { meaning.textContent = s.options.find((o) => o.value === value).text; };
      let input;
      if (s.kind === "bool") {
        input = el("input", { id, type: "checkbox", onchange: (e) => { const v = String(e.target.checked); show(v); setRule(s, v); } });
        input.checked = s.default === "true";
      } else {
        input = el("select", { id, onchange: (e) => { show(e.target.value); setRule(s, e.target.value); } },
                   s.options.map((o) => el("option", { value: o.value, text: o.value.replace(/_/g, " ") })));
        input.value = s.default;
      }
      show(s.default);
      return el("div", { class: "ruling" }, [
        el("label", { class: "switch", for: id }, [el("span", {}, [el("strong", { text: s.title }), " ", el("code", { text: s.name })]), input]),
        meaning]);
    };
    const number = (s) => {
      const id = "rule-" + s.name;
      const input = el("input", { id, type: "number", min: String(s.min), max: String(s.max), value: String(s.default),
                                  inputmode: "numeric", onchange: (e) => setRule(s, Number(e.target.value)) });
      return el("label", { class: "switch", for: id }, [el("span", {}, [s.title + " ", el("code", { text: s.name })]), input]);
    };
    $("switches").replaceChildren(...rulings.map(ruling), el("h3", { text: "Rule numbers" }), ...numbers.map(number));
  }

  function setRule(s, value) {
    if (value === s.default) delete state.rules[s.name]; else state.rules[s.name] = value;
    $("rulings-changed").textContent = Object.keys(state.rules).length ? Object.keys(state.rules).length + " changed" : "";
    changed();
  }

  function changed() {
    renderDeck(); renderHand(); renderPopulation(); renderTemples();
    if (state.checking) renderCheck();
  }

  // --- asking the server -----------------------------------------------------------------
  function question(extra) {
    return Object.assign({ game, hand: state.hand, population: state.population, temples: state.temples,
                           rules: state.rules }, extra || {});
  }

  async function ask(path, body) {
    const response = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" },
                                         body: JSON.stringify(body) });
    const data = await response.json();
    if (!response.ok) { showError(data.error); return null; }
    showError(null);
    return data;
  }

  // --- drawing plays ----------------------------------------------------------------------
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
      sum = values.join(" + ") + " = " + farmValue + " ≥ Population " + state.population;
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

  function planBlock(plan, farmValue, before) {
    return [farmPhase(plan, farmValue), buildPhase(plan, before)];
  }

  function afterOf(before, plan) {
    const tops = before.slice();
    if (plan.outcome !== "built") return tops;
    for (const p of plan.build) { if (p.temple > tops.length) tops.push(p.value); else tops[p.temple - 1] = p.value; }
    return tops;
  }

  function showResult(children, kind) {
    const box = $("result");
    box.hidden = false;
    box.dataset.kind = kind;
    box.replaceChildren(...children);
    box.scrollIntoView({ block: "nearest", behavior: "smooth" });
  }

  async function solve() {
    const data = await ask("/api/explain", question());
    if (!data) return;
    const plan = data.best;
    const head = el("h2", {}, ["Best play: ", el("span", { class: "points" + (plan.points < 0 ? " negative" : ""),
                                                          id: "best-points", text: pointsText(plan.points) })]);
    const why = el("p", { class: "why" }, [el("strong", { text: "Why: " }), data.why + "."]);
    if (data.next_best) why.append(el("br"), "Next best: " + pointsText(data.next_best.points) + " — " + data.next_play);
    const box = [head].concat(planBlock(plan, data.farm_value, data.question.temples),
      [templeRow(data.question.temples, data.temples_after), why]);
    showResult(box, "best");
    $("result").dataset.play = JSON.stringify(plan);
  }

  async function allBest() {
    const plans = await ask("/api/all", question());
    if (!plans) return;
    const head = el("h2", { text: plural(plans.length, "best play") + ", " + pointsText(plans[0].points) + " each" });
    const list = el("ol", { class: "all-plays" }, plans.map((plan) =>
      el("li", {}, planBlock(plan, null, state.temples).concat([templeRow(state.temples, afterOf(state.temples, plan))]))));
    showResult([head, list], "all");
  }

  // --- checking a play of one's own -----------------------------------------------------
  function renderCheck() {
    state.choices = state.hand.map((name, i) => state.choices[i] && state.choices[i].name === name ? state.choices[i]
      : { name, role: "keep", temple: "new", value: 1, order: 0 });
    const templeOptions = () => {
      const opts = state.temples.map((top, i) => [String(i + 1), "temple " + (i + 1) + " (top " + top + ")"]);
      return opts.concat([["new", "a new temple"]]);
    };
    $("check-cards").replaceChildren(...state.choices.map((choice, i) => {
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
  let orderCounter = 0;

  function playText() {
    const farm = state.choices.filter((c) => c.role === "farm").map((c) => c.name);
    const build = state.choices.filter((c) => c.role === "build").sort((a, b) => a.order - b.order)
      .map((c) => c.name + (state.cards[c.name].type === "god" ? "=" + c.value : "") + "@" + c.temple);
    const text = "farm " + (farm.join(", ") || "none") + "; build " + (build.join(", ") || "none");
    $("play-text").textContent = text;
    return text;
  }

  async function checkPlay() {
    const data = await ask("/api/check", question({ play: playText() }));
    if (!data) return;
    const verdict = data.legal
      ? (data.optimal ? "Legal, and one of the best plays" : "Legal, " + (data.gap ? plural(data.gap, "point") + " less than the best" : "as many points as the best, but it spends more on Farm"))
      : "Illegal: " + data.reason;
    const children = [el("h2", { class: "verdict " + (data.legal ? "legal" : "illegal"), id: "verdict", text: verdict })];
    if (data.play) children.push(el("p", { text: "Your play scores " + pointsText(data.play.points) + "." }), ...planBlock(data.play, null, state.temples));
    children.push(el("h2", { text: "Best play: " + pointsText(data.best.points) }), ...planBlock(data.best, null, state.temples),
                  templeRow(state.temples, afterOf(state.temples, data.best)));
    showResult(children, "check");
  }

  // --- start ---------------------------------------------------------------------------------
  async function start() {
    const response = await fetch("/game/" + encodeURIComponent(game) + "/state");
    const data = await response.json();
    if (data.build === null) { showError((data.error || "the game has not been built yet").replace(/^Error: /, "")); return; }
    for (const card of data.cards) { state.cards[card.name] = card; state.order.push(card.name); }
    document.documentElement.style.setProperty("--card-ratio", data.card_px[0] + " / " + data.card_px[1]);
    renderTopButtons(); renderSwitches(); changed();
    $("pop-down").onclick = () => { state.population = Math.max(1, state.population - 1); changed(); };
    $("pop-up").onclick = () => { state.population = Math.min(1000, state.population + 1); changed(); };
    $("clear-hand").onclick = () => { state.hand = []; changed(); };
    $("solve").onclick = solve;
    $("all-best").onclick = allBest;
    $("check-mode").onclick = () => {
      state.checking = !state.checking;
      $("check-panel").hidden = !state.checking;
      $("check-mode").setAttribute("aria-pressed", String(state.checking));
      if (state.checking) { renderCheck(); $("check-panel").scrollIntoView({ block: "nearest" }); }
    };
    $("check").onclick = checkPlay;
    document.body.dataset.ready = "1";
  }
  start();
})();
