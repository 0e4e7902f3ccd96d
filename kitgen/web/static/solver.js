// The solver page of any game whose rules engine the server plays: the deck with the cards' own
// pictures, the position (built from the engine's position fields), the rulings' switches, and the
// answers of the server's solver (POST /api/explain, /api/all, /api/check, /api/advise).
//
// The page never shows an answer that does not match what is on screen: every change to the
// position or the rulings asks again at once (answers take milliseconds), and until the answer
// comes the old one is marked out of date; an answer that arrives after a newer question was asked
// is dropped.  The position and the rulings live in the address (?hand=...&rule.chain=false), so a
// reload keeps them and the link opens the same position on another device; Undo steps back.
//
// What is drawn of a position and of an answer is a "view": the engine's own, when its package has one
// (it sets window.kitgenSolverView = function (kit) { return view; } before this script runs), else the
// generic view below, which works from the position fields alone (an engine's view may start from it:
// kit.genericView() returns it, with its values, fields and widgets).  A view has:
//   render()          draw the position in #position
//   position()        the position's fields, as the JSON API takes them
//   restore(fields)   set the position from fields read back from the address (missing ones: defaults)
//   used(name), add(name)   copies of a card in the position, and a tap on it in the deck
//   accepts(name)     (optional) whether a tap on that card can add it now
//   summary()         (optional) nodes for the sticky bar: the hand in small pictures
//   showAnswer(data), showAll(data), openCheck(panel), showChecked(data), play() (the play to check, or null)
"use strict";
(function () {
  const root = document.querySelector(".solver");
  const game = root.dataset.game;
  const switches = JSON.parse(root.dataset.switches);
  const engine = JSON.parse(root.dataset.engine);
  const $ = (id) => document.getElementById(id);
  const banner = $("error-banner");
  const state = { rules: {}, cards: {}, order: [], checking: false, mode: "best" };
  const ADVICE_PLAYOUTS = 100;
  const UNDO_STEPS = 100;
  let asked = 0;                    // the number of the latest question; older answers are dropped
  let shown = null;                 // the address of the position the answer on screen is for
  let undo = [];                    // earlier positions, as addresses
  let current = "";                 // the position on screen, as an address

  function el(tag, attrs, children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "text") node.textContent = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v);
    }
    for (const child of children || []) if (child !== null && child !== undefined) node.append(child);
    return node;
  }
  const plural = (n, word) => n + " " + word + (n === 1 ? "" : "s");
  const signed = (n) => (n > 0 ? "+" : n < 0 ? "−" : "±") + Math.abs(n);

  function showError(message) {
    banner.hidden = !message;
    banner.textContent = message ? "Error: " + message : "";
  }

  function picture(name, extra) {
    const card = state.cards[name];
    if (!card) return el("span", { class: "card-name", text: name });
    return el("img", Object.assign({ src: card.image, alt: name, width: 110, height: 154, loading: "lazy" }, extra || {}));
  }

  // --- asking the server: one question at a time, the latest wins ------------------------------
  async function ask(path, body) {
    const mine = ++asked;
    const box = $("result");
    box.classList.add("stale");
    box.setAttribute("aria-busy", "true");
    let response, data;
    try {
      response = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" },
                                     body: JSON.stringify(body) });
      data = await response.json();
    } catch (err) {
      if (mine !== asked) return null;
      data = { error: "the server did not answer (" + err.message + ")" };
      response = { ok: false };
    }
    if (mine !== asked) return null;            // a newer question was asked meanwhile
    box.removeAttribute("aria-busy");
    if (!response.ok) {
      showError(data.error);
      showResult([el("h2", { text: "No answer for this position" }), el("p", { class: "hint", text: data.error })], "error");
      return null;
    }
    showError(null);
    return data;
  }

  function showResult(children, kind) {
    const box = $("result");
    box.hidden = false;
    box.dataset.kind = kind;
    box.dataset.position = current;
    box.classList.remove("stale");
    box.removeAttribute("aria-busy");
    shown = current;
    box.replaceChildren(...children.filter((child) => child !== null && child !== undefined));   // as el() leaves them out
    updateBar();
  }

  function markStale(message) {
    const box = $("result");
    if (box.hidden) return;
    box.classList.add("stale");
    box.dataset.position = shown || "";
    let note = box.querySelector(".stale-note");
    if (!note) { note = el("p", { class: "stale-note" }); box.prepend(note); }
    note.textContent = message;
  }

  // Cards named in a text, in the order they appear (the longest name first where two overlap).
  function cardsIn(text) {
    const names = state.order.slice().sort((a, b) => b.length - a.length);
    const found = [];
    let rest = text;
    for (const name of names) {
      let at = rest.indexOf(name);
      while (at >= 0) {
        found.push([at, name]);
        rest = rest.slice(0, at) + " ".repeat(name.length) + rest.slice(at + name.length);
        at = rest.indexOf(name);
      }
    }
    return found.sort((a, b) => a[0] - b[0]).map(([, name]) => name);
  }

  let headline = "";
  const kit = { game, engine, switches, state, $, el, plural, signed, showError, picture, ask, showResult, cardsIn,
                changed: () => changed(), question: (extra) => question(extra), refresh: () => refresh(),
                setHeadline: (text) => { headline = text; updateBar(); } };

  // --- the deck ------------------------------------------------------------------------------
  // The deck's buttons are made once for a deck (and made again when its cards change); each change of
  // the position only sets their badges and whether they can be pressed, so the pictures stay as they are.
  let deckMade = null;                      // the cards the buttons were made for
  const deckButtons = new Map();            // card name -> its button

  function renderDeck() {
    const cards = state.order.map((name) => state.cards[name]);
    const made = JSON.stringify(cards.map((card) => [card.name, card.type_label, card.value, card.image]));
    if (made !== deckMade) {
      const groups = {};
      for (const card of cards) (groups[card.type_label] = groups[card.type_label] || []).push(card);
      const parts = [];
      deckButtons.clear();
      for (const [label, group] of Object.entries(groups)) {
        parts.push(el("h3", { text: label }));
        parts.push(el("div", { class: "group" }, group.map((card) => {
          const button = el("button", { class: "card-button", "data-card": card.name, "aria-label": "Add " + card.name,
                                        onclick: () => view.add(card.name) }, [picture(card.name)]);
          deckButtons.set(card.name, button);
          return el("div", {}, [button, el("div", { class: "label", text: card.name + (card.value ? " · " + card.value : "") })]);
        })));
      }
      $("deck").replaceChildren(...parts);
      deckMade = made;
    }
    for (const card of cards) {
      const button = deckButtons.get(card.name);
      const n = view.used(card.name);
      const badge = button.querySelector(".badge");
      if (n && badge) badge.textContent = "×" + n;
      else if (n) button.append(el("span", { class: "badge", text: "×" + n }));
      else if (badge) badge.remove();
      button.disabled = Boolean(n >= card.count || (view.accepts && !view.accepts(card.name)));
    }
  }

  // --- the rulings, as the rulebook prints them, then the rule numbers --------------------------
  function renderSwitches() {
    const rulings = switches.filter((s) => s.kind !== "number");
    const numbers = switches.filter((s) => s.kind === "number");
    const valueOf = (s) => (s.name in state.rules ? String(state.rules[s.name]) : String(s.default));
    const ruling = (s) => {
      const id = "rule-" + s.name;
      const meaning = el("p", { class: "meaning" });
      const show = (value) => { meaning.textContent = s.options.find((o) => o.value === value).text; };
      let input;
      if (s.kind === "bool") {
        input = el("input", { id, type: "checkbox", onchange: (e) => { const v = String(e.target.checked); show(v); setRule(s, v); } });
        input.checked = valueOf(s) === "true";
      } else {
        input = el("select", { id, onchange: (e) => { show(e.target.value); setRule(s, e.target.value); } },
                   s.options.map((o) => el("option", { value: o.value, text: o.value.replace(/_/g, " ") })));
        input.value = valueOf(s);
      }
      show(valueOf(s));
      return el("div", { class: "ruling" }, [
        el("label", { class: "switch", for: id }, [el("span", {}, [el("strong", { text: s.title }), " ", el("code", { text: s.name })]), input]),
        meaning]);
    };
    const number = (s) => {
      const id = "rule-" + s.name;
      const input = el("input", { id, type: "number", min: String(s.min), max: String(s.max), value: valueOf(s),
                                  inputmode: "numeric", onchange: (e) => setRule(s, Number(e.target.value)) });
      return el("label", { class: "switch", for: id }, [el("span", {}, [s.title + " ", el("code", { text: s.name })]), input]);
    };
    const parts = rulings.map(ruling);
    if (numbers.length) parts.push(el("h3", { text: "Rule numbers" }), ...numbers.map(number));
    if (!parts.length) parts.push(el("p", { class: "hint", text: "This game has no rulings to switch." }));
    $("switches").replaceChildren(...parts);
    countChanged();
  }

  function countChanged() {
    const n = Object.keys(state.rules).length;
    $("rulings-changed").textContent = n ? n + " changed" : "";
  }

  function setRule(s, value) {
    if (String(value) === String(s.default)) delete state.rules[s.name]; else state.rules[s.name] = value;
    countChanged();
    changed();
  }

  // --- the position in the address -------------------------------------------------------------
  function encode(f, value) {
    if (value === undefined || value === null) return null;
    if (f.kind === "cards" || f.kind === "numbers") return value.length ? value.join(",") : null;
    if (f.kind === "player-cards") return value.length ? value.map((list) => list.join(",")).join(";") : null;
    if (f.kind === "flag") return value ? "1" : null;
    return String(value);
  }

  function decode(f, text) {
    const items = (t) => (t === "" ? [] : t.split(","));
    if (f.kind === "cards") return items(text);
    if (f.kind === "numbers") return items(text).map(Number).filter((n) => Number.isFinite(n));
    if (f.kind === "player-cards") return text.split(";").map(items);
    if (f.kind === "flag") return text === "1" || text === "true";
    if (f.kind === "number") { const n = Number(text); return Number.isFinite(n) ? n : undefined; }
    return text;
  }

  function address() {
    const params = new URLSearchParams();
    const position = view.position();
    for (const f of engine.fields) {
      const text = encode(f, position[f.name]);
      if (text !== null) params.set(f.name, text);
    }
    for (const [name, value] of Object.entries(state.rules)) params.set("rule." + name, String(value));
    return params.toString();
  }

  function restore(query) {
    const params = new URLSearchParams(query);
    const fields = {};
    for (const f of engine.fields) {
      if (params.has(f.name)) {
        const value = decode(f, params.get(f.name));
        if (value !== undefined) fields[f.name] = value;
      }
    }
    state.rules = {};
    for (const s of switches) {
      const value = params.get("rule." + s.name);
      if (value === null || value === String(s.default)) continue;
      if (s.kind === "number") { if (Number.isFinite(Number(value))) state.rules[s.name] = Number(value); }
      else if (s.kind === "bool" ? ["true", "false"].includes(value) : s.options.some((o) => o.value === value)) state.rules[s.name] = value;
    }
    view.restore(fields);
  }

  function remember() {
    const now = address();
    if (now === current) return false;
    undo.push(current);
    if (undo.length > UNDO_STEPS) undo.shift();
    current = now;
    history.replaceState(null, "", now ? "?" + now : location.pathname);
    return true;
  }

  function stepBack() {
    if (!undo.length) return;
    const back = undo.pop();
    restore(back);
    renderSwitches();
    current = back;
    history.replaceState(null, "", back ? "?" + back : location.pathname);
    draw();
    refresh();
  }

  async function share() {
    const link = location.href;
    const box = $("share-link");
    box.hidden = false;
    box.value = link;
    box.select();
    try {
      if (navigator.share && matchMedia("(pointer: coarse)").matches) await navigator.share({ url: link, title: document.title });
      else if (navigator.clipboard) { await navigator.clipboard.writeText(link); $("share").textContent = "Link copied"; }
    } catch (err) { /* the link stays selected in the box: copy it by hand */ }
  }

  // --- every change: redraw, remember, ask again -------------------------------------------------
  function draw() {
    renderDeck(); view.render();
    if (state.checking && view.renderCheck) view.renderCheck();
    $("undo").disabled = !undo.length;
    updateBar();
  }

  function changed() {
    const moved = remember();
    draw();
    if (moved) refresh();
  }

  function refresh() {
    if (state.mode === "advise") { markStale("This advice is for an earlier position: press Playout advice again."); return; }
    if (state.mode === "check" && view.play) {
      const play = view.play();                 // null: no play to check in this position
      if (play !== null) { checkPlay(play); return; }
    }
    if (state.mode === "all") { allBest(); return; }
    solve();
  }

  function updateBar() {
    const bar = $("bar-hand");
    if (bar) bar.replaceChildren(...(view && view.summary ? view.summary() : []));
    const words = $("bar-answer");
    if (words) {
      const stale = $("result").classList.contains("stale");
      words.textContent = stale ? "Updating…" : headline;
      words.hidden = !headline && !stale;
    }
    if ($("undo-bar")) $("undo-bar").disabled = !undo.length;
  }

  function question(extra) {
    return Object.assign({ game, rules: state.rules }, view.position(), extra || {});
  }

  // --- the playout advice, for every engine ----------------------------------------------------
  async function advise() {
    state.mode = "advise";
    const rows = await ask("/api/advise", question({ playouts: ADVICE_PLAYOUTS }));
    if (!rows) return;
    const table = el("table", { class: "advice" }, [el("tbody", {}, rows.map((row) => el("tr", {}, [
      el("td", { class: "rate", text: (100 * row.rate).toFixed(1) + "%" }),
      el("td", { class: "bar" }, [el("span", { class: "interval", style: "margin-left:" + (100 * row.low) + "%;width:" +
                                               Math.max(1, 100 * (row.high - row.low)) + "%" })]),
      el("td", { class: "action" }, [el("span", { text: row.text }),
        el("span", { class: "mini-cards" }, cardsIn(row.text).map((name) => picture(name, { width: 36, height: 50 })))]),
    ])))]);
    kit.setHeadline("Playout advice");
    showResult([el("h2", { text: "Playout advice" }),
      el("p", { class: "hint", text: "Each legal action's win rate over " + ADVICE_PLAYOUTS + " playouts: the cards you " +
        "cannot see dealt at random, " + engine.playouts + ". The bar is the 95% interval." }),
      table], "advice");
  }

  // --- the generic view: the position from the engine's fields --------------------------------
  // An engine's own view may start from it (kit.genericView()) and replace what it draws differently.
  function genericView() {
    const fields = engine.fields;
    const values = {};
    let active = null;                   // [field name, player index or null]: where a deck tap goes
    // the number of players: a "players" field, or else each player-cards field's own count of lists,
    // changed on the page within the field's min and max
    const playersField = fields.find((g) => g.name === "players" && g.kind === "number");
    const fresh = (f) => {
      const d = f.default;
      const value = f.kind === "cards" ? (d || []).slice() : f.kind === "player-cards" ? (d || []).map((l) => l.slice())
        : f.kind === "numbers" ? (d || []).slice() : f.kind === "flag" ? Boolean(d) : d !== undefined ? d : (f.kind === "number" ? f.min || 0 : "");
      if (f.kind === "player-cards" && !playersField) {
        const wanted = Math.min(f.max ?? 4, Math.max(f.min ?? 2, 4));
        while (value.length < wanted) value.push([]);
      }
      return value;
    };
    for (const f of fields) {
      values[f.name] = fresh(f);
      if (!active && (f.kind === "cards" || f.kind === "player-cards")) active = [f.name, f.kind === "player-cards" ? 0 : null];
    }
    const playersOf = (f) => (playersField ? values.players : values[f.name].length);
    const setPlayers = (f, n) => {
      const list = values[f.name];
      if (n < (f.min ?? 1) || n > (f.max ?? 8)) return;
      while (list.length < n) list.push([]);
      list.length = n;
      if (active && active[0] === f.name && active[1] >= n) active = [f.name, 0];
      changed();
    };
    const listOf = (name, player) => {
      if (player === null) return values[name];
      while (values[name].length <= player) values[name].push([]);
      return values[name][player];
    };
    const cardList = (f, player, label) => {
      const list = listOf(f.name, player);
      const here = active && active[0] === f.name && active[1] === player;
      const id = "field-" + f.name + (player === null ? "" : "-" + (player + 1));
      return el("div", { class: "card-field" + (here ? " active" : "") }, [
        el("div", { class: "panel-head" }, [
          el("h3", {}, [label + " ", el("span", { class: "count", text: plural(list.length, "card") })]),
          el("button", { class: "small", "aria-pressed": String(here), "data-add-to": id,
                         onclick: () => { active = [f.name, player]; draw(); } }, [here ? "Adding here" : "Add here"])]),
        el("div", { id, class: "hand", "aria-label": label }, list.length ? list.map((name, i) => el("button", {
          class: "card-button", "data-card": name, "aria-label": "Remove " + name,
          onclick: () => { list.splice(i, 1); changed(); } }, [picture(name), el("span", { class: "remove", text: "✕" })]))
          : [el("p", { class: "hint", text: here ? "Tap cards in the deck to add them here." : "No cards." })])]);
    };
    const title = (f) => f.label.charAt(0).toUpperCase() + f.label.slice(1);
    const widget = (f) => {
      const head = el("h2", { text: title(f) });
      const help = f.help && f.kind !== "cards" && f.kind !== "player-cards" ? el("p", { class: "hint", text: f.help }) : null;
      if (f.kind === "cards") return el("section", { class: "panel", "data-field": f.name }, [cardList(f, null, title(f))]);
      if (f.kind === "player-cards") {
        const rows = [];
        for (let p = 0; p < playersOf(f); p++) rows.push(cardList(f, p, "Player " + (p + 1)));
        const top = playersField ? head : el("div", { class: "panel-head" }, [head, el("div", { class: "stepper players" }, [
          el("button", { class: "small", "aria-label": "One player fewer", "data-players": "down",
                         onclick: () => setPlayers(f, playersOf(f) - 1) }, ["−"]),
          el("output", { "data-players": f.name, text: plural(playersOf(f), "player") }),
          el("button", { class: "small", "aria-label": "One player more", "data-players": "up",
                         onclick: () => setPlayers(f, playersOf(f) + 1) }, ["+"])])]);
        return el("section", { class: "panel", "data-field": f.name }, [top, help, ...rows]);
      }
      if (f.kind === "number") return el("section", { class: "panel row-panel", "data-field": f.name }, [head,
        kit.numberInput(f.name, f.label, values[f.name], f.min, f.max, (v) => { values[f.name] = v; changed(); })]);
      if (f.kind === "numbers") {
        const list = values[f.name];
        const chips = list.length ? list.map((v, i) => el("button", { class: "number-chip", "aria-label": "Remove " + v,
          onclick: () => { list.splice(i, 1); changed(); } }, [el("span", { class: "chip-value", text: String(v) }), el("span", { class: "chip-remove", text: "✕" })]))
          : [el("p", { class: "hint", text: "None." })];
        const adds = [];
        if (f.min !== undefined && f.max !== undefined && f.max - f.min <= 12) {
          for (let v = f.min; v <= f.max; v++) adds.push(el("button", { "data-value": String(v), onclick: () => { list.push(v); changed(); } }, [String(v)]));
        } else {
          const input = el("input", { type: "number", inputmode: "numeric", "aria-label": "Add to " + f.label });
          adds.push(input, el("button", { onclick: () => { if (input.value !== "") { list.push(Number(input.value)); changed(); } } }, ["Add"]));
        }
        return el("section", { class: "panel", "data-field": f.name }, [head, help, el("div", { class: "number-chips" }, chips),
          el("div", { class: "value-buttons" }, adds)]);
      }
      if (f.kind === "choice") {
        const select = el("select", { "aria-label": f.label, onchange: (e) => { values[f.name] = e.target.value; changed(); } },
                          (f.choices || []).map((c) => el("option", { value: String(c), text: String(c).replace(/_/g, " ") })));
        select.value = String(values[f.name]);
        return el("section", { class: "panel row-panel", "data-field": f.name }, [head, select]);
      }
      const box = el("input", { type: "checkbox", "aria-label": f.label, onchange: (e) => { values[f.name] = e.target.checked; changed(); } });
      box.checked = Boolean(values[f.name]);
      return el("section", { class: "panel row-panel", "data-field": f.name }, [head, box]);
    };
    const allCards = () => {
      const out = [];
      for (const f of fields) {
        if (f.kind === "cards") out.push(...values[f.name]);
        if (f.kind === "player-cards") for (const list of values[f.name]) out.push(...list);
      }
      return out;
    };
    const bestBlock = (text) => el("div", { class: "best-play" }, [
      el("p", { class: "play-words", text }),
      el("div", { class: "plays" }, kit.cardsIn(text).map((name) => el("div", { class: "play-card", "data-card": name }, [picture(name)])))]);
    const lines = (data) => el("div", { class: "lines" }, (data.lines || []).map((line) => el("p", { text: line })));
    let playInput = null;
    return {
      values, fields, widget, cardList, playersOf, bestBlock, lines, fresh,
      render() { $("position").replaceChildren(...fields.map(widget)); },
      position() {
        const out = {};
        for (const f of fields) {
          if (f.kind === "player-cards") out[f.name] = values[f.name].slice(0, playersOf(f));
          else out[f.name] = values[f.name];
        }
        return out;
      },
      restore(given) {
        for (const f of fields) values[f.name] = f.name in given ? given[f.name] : fresh(f);
      },
      summary() {
        const cards = allCards();
        return cards.length ? cards.map((name) => picture(name, { width: 32, height: 45 })) : [el("span", { class: "hint", text: "No cards yet" })];
      },
      used(name) { return allCards().filter((n) => n === name).length; },
      add(name) {
        if (!active || this.used(name) >= state.cards[name].count) return;
        listOf(active[0], active[1]).push(name);
        changed();
      },
      showAnswer(data) {
        const best = data.best || [];
        kit.setHeadline(best.length ? best[0] : "");
        showResult([el("h2", { id: "best-head", text: best.length > 1 ? "Best plays" : "Best play" }),
                    ...best.map(bestBlock), lines(data)], "best");
      },
      showAll(data) {
        const plays = Array.isArray(data) ? data : data.best || [];
        showResult([el("h2", { text: plural(plays.length, "best play") }),
                    el("ol", { class: "all-plays" }, plays.map((p) => el("li", {}, [bestBlock(typeof p === "string" ? p : JSON.stringify(p))])))], "all");
      },
      openCheck(panel) {
        playInput = el("input", { id: "play-input", class: "play-input", type: "text", spellcheck: "false", autocomplete: "off",
                                  "aria-label": "Your play" });
        panel.replaceChildren(el("h2", { text: "Your play" }),
          el("p", { class: "hint", text: engine.play_help || "Write the play as the rulebook words it." }),
          playInput, el("div", { class: "actions" }, [el("button", { id: "check", class: "primary", onclick: () => checkPlay(playInput.value) }, ["Check this play"])]));
      },
      play() { return playInput ? playInput.value : ""; },
      showChecked(data) {
        const verdict = !data.legal ? "Illegal: " + (data.reason || "") : data.optimal === true ? "Legal, and one of the best plays"
          : data.optimal === false ? "Legal, not the best play" : "Legal";
        kit.setHeadline(verdict);
        showResult([el("h2", { class: "verdict " + (data.legal ? "legal" : "illegal"), id: "verdict", text: verdict }), lines(data)], "check");
      },
    };
  }

  // A whole number, typed or stepped by one: the input keeps what is typed until it is a number in range.
  kit.numberInput = function (id, label, value, min, max, set) {
    const clamp = (v) => Math.min(max ?? Infinity, Math.max(min ?? -Infinity, v));
    const input = el("input", { id, type: "number", inputmode: "numeric", class: "number-input", "aria-label": label,
                                value: String(value), min: min === undefined ? "" : String(min), max: max === undefined ? "" : String(max),
                                onchange: (e) => { const v = Number(e.target.value); if (e.target.value !== "" && Number.isInteger(v)) set(clamp(v)); else e.target.value = String(value); } });
    return el("div", { class: "stepper" }, [
      el("button", { id: id + "-down", "aria-label": label + " down", onclick: () => set(clamp(value - 1)) }, ["−"]),
      input,
      el("button", { id: id + "-up", "aria-label": label + " up", onclick: () => set(clamp(value + 1)) }, ["+"])]);
  };

  async function solve() {
    state.mode = "best";
    const data = await ask("/api/explain", question());
    if (data) view.showAnswer(data);
  }
  async function allBest() {
    state.mode = "all";
    const data = await ask("/api/all", question());
    if (data) view.showAll(data);
  }
  async function checkPlay(play) {
    state.mode = "check";
    const data = await ask("/api/check", question({ play }));
    if (data) view.showChecked(data);
  }
  kit.checkPlay = checkPlay;

  kit.genericView = genericView;
  const view = window.kitgenSolverView ? window.kitgenSolverView(kit) : genericView();

  // --- start ---------------------------------------------------------------------------------
  async function start() {
    const response = await fetch("/game/" + encodeURIComponent(game) + "/state");
    const data = await response.json();
    if (data.build === null) { showError((data.error || "the game has not been built yet").replace(/^Error: /, "")); return; }
    for (const card of data.cards) { state.cards[card.name] = card; state.order.push(card.name); }
    document.documentElement.style.setProperty("--card-ratio", data.card_px[0] + " / " + data.card_px[1]);
    restore(location.search);
    current = address();
    history.replaceState(null, "", current ? "?" + current : location.pathname);
    renderSwitches(); draw();
    $("solve").onclick = () => { solve().then(() => $("result").scrollIntoView({ block: "nearest" })); };
    $("all-best").hidden = !engine.all;
    $("all-best").onclick = allBest;
    $("advise").hidden = !engine.advice;
    $("advise").onclick = advise;
    $("undo").onclick = stepBack;
    $("undo-bar").onclick = stepBack;
    $("share").onclick = share;
    $("check-mode").onclick = () => {
      state.checking = !state.checking;
      const panel = $("check-panel");
      panel.hidden = !state.checking;
      $("check-mode").setAttribute("aria-pressed", String(state.checking));
      if (state.checking) { view.openCheck(panel); panel.scrollIntoView({ block: "nearest" }); }
      else if (state.mode === "check") solve();
    };
    document.body.dataset.ready = "1";
    await solve();
  }
  start();
})();
