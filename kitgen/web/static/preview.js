// Live preview: listen to the game's event stream and show its last good drawing of the cards and
// its last good kit. Each card's picture is named by what it rests on: a new drawing replaces only
// the pictures that changed (once they have loaded), and every other card stays as it is. The
// "Show boxes" switch outlines and names every box over the cards; a click on a card opens its
// panel: each text box with the size it was fitted to, the fallback it took and its warnings.
"use strict";
(function () {
  const grid = document.getElementById("view-cards");
  const game = grid.dataset.game;
  const pagesView = document.getElementById("view-pages");
  const banner = document.getElementById("error-banner");
  const status = document.getElementById("status");
  const downloads = document.getElementById("downloads");
  const warnings = document.getElementById("warnings");
  const outlineSwitch = document.getElementById("outline-switch");
  const panel = document.getElementById("card-panel");
  const figures = new Map();  // a card's row ("back" for the back) -> its figure
  let shown = null;           // drawing number on screen
  let latest = null;          // the last state received
  let view = "cards";
  let boxes = { build: null, data: null };   // the boxes of the drawing on screen, once asked for
  let opened = null;          // the row of the card whose panel is open

  function el(tag, attrs, children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "text") node.textContent = v; else node.setAttribute(k, v);
    }
    for (const child of children || []) node.append(child);
    return node;
  }

  function loaded(urls) {
    return Promise.all(urls.map((url) => new Promise((resolve) => {
      const img = new Image();
      img.onload = img.onerror = resolve;
      img.src = url;
    })));
  }

  function cardFigure(card, ratio) {
    const img = el("img", { alt: card.name, loading: "eager", width: 275, height: Math.round(275 * ratio) });
    const picture = el("div", { class: "card-picture" }, [img]);
    const figure = el("figure", { tabindex: "0", role: "button" }, [picture,
      el("figcaption", {}, [el("span", { class: "name" }, [el("span", { class: "type-dot" }), el("span", { class: "label" })]),
                            el("span", { class: "copies" })])]);
    figure.addEventListener("click", () => openPanel(figure.dataset.row));
    figure.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") { event.preventDefault(); openPanel(figure.dataset.row); }
    });
    return figure;
  }

  function fill(figure, card, copies) {
    figure.dataset.name = card.name;
    figure.dataset.row = card.row;
    figure.setAttribute("aria-label", card.name + ": its boxes");
    const img = figure.querySelector("img");
    img.alt = card.name;
    if (figure.dataset.picture !== card.picture) {
      figure.dataset.picture = card.picture;
      img.src = card.image;
      const old = figure.querySelector(".boxes");
      if (old) old.remove();
    }
    const dot = figure.querySelector(".type-dot");
    dot.title = card.type_label;
    dot.style.background = card.color;
    figure.querySelector(".label").textContent = card.name;
    figure.querySelector(".copies").textContent = copies;
  }

  function showCards(state) {
    const ratio = state.card_px[1] / state.card_px[0];
    grid.style.setProperty("--card-ratio", state.card_px[0] + " / " + state.card_px[1]);
    const back = { name: "Back", row: "back", image: state.back, picture: state.back.split("/").pop().slice(0, -4),
                   color: "#888", type_label: "back" };
    const order = [];
    const rows = new Set();
    for (const card of state.cards.concat([back])) {
      const row = String(card.row);
      rows.add(row);
      let figure = figures.get(row);
      if (!figure) { figure = cardFigure(card, ratio); figures.set(row, figure); }
      fill(figure, card, card === back ? state.deck_size + " cards" : "×" + card.count);
      order.push(figure);
    }
    for (const row of [...figures.keys()]) if (!rows.has(row)) figures.delete(row);
    // figures already in place stay where they are (their pictures are not loaded again)
    const now = [...grid.children];
    if (now.length !== order.length || now.some((node, i) => node !== order[i])) grid.replaceChildren(...order);
  }

  async function boxesOf(state) {
    if (boxes.build !== state.build) {
      const response = await fetch(state.boxes);
      if (!response.ok) return null;
      boxes = { build: state.build, data: await response.json() };
    }
    return boxes.data;
  }

  async function showOutlines() {
    grid.classList.toggle("outlined", outlineSwitch.checked);
    if (!outlineSwitch.checked || !latest || shown === null) return;
    const state = latest;
    const data = await boxesOf(state);
    if (!data || shown !== state.build) return;
    for (const figure of figures.values()) {
      if (figure.querySelector(".boxes")) continue;
      const found = data[figure.dataset.picture] || [];
      const layer = el("div", { class: "boxes", "aria-hidden": "true" }, found.map((box) => {
        const outline = el("div", { class: "box", "data-box": box.name, title: box.name }, [el("span", { text: box.name })]);
        Object.assign(outline.style, { left: 100 * box.x + "%", top: 100 * box.y + "%",
                                       width: 100 * box.w + "%", height: 100 * box.h + "%" });
        return outline;
      }));
      figure.querySelector(".card-picture").append(layer);
    }
    document.body.dataset.outlined = String(state.build);
  }

  function describe(box) {
    const cells = [el("th", { scope: "row", text: box.name })];
    cells.push(el("td", { text: box.size === null ? "" : (Math.round(box.size * 100) / 100) + " pt" }));
    cells.push(el("td", { text: box.step ? "fallback " + box.step + " of " + box.steps + ": " + box.change
                                          : box.steps ? "none needed (" + box.steps + " written)" : "none" }));
    cells.push(el("td", {}, box.warnings.length ? [el("ul", {}, box.warnings.map((w) => el("li", { text: w })))]
                                               : [el("span", { class: "muted", text: "none" })]));
    return el("tr", { "data-box": box.name }, cells);
  }

  async function openPanel(row) {
    opened = row;
    const figure = figures.get(String(row));
    if (!figure || !latest) return;
    const data = await boxesOf(latest);
    if (!data || opened !== row) return;
    const found = data[figure.dataset.picture] || [];
    const texts = found.filter((box) => box.kind === "text" || box.warnings.length);
    const close = el("button", { type: "button", class: "close", text: "Close" });
    close.addEventListener("click", () => { panel.hidden = true; opened = null; });
    panel.replaceChildren(
      el("header", {}, [el("h2", { text: figure.dataset.name + (row === "back" ? "" : " · row " + row) }), close]),
      texts.length ? el("table", {}, [
        el("thead", {}, [el("tr", {}, ["Box", "Size", "Fallback", "Warnings"].map((t) => el("th", { scope: "col", text: t })))]),
        el("tbody", {}, texts.map(describe))])
        : el("p", { class: "muted", text: "No text on this card." }));
    panel.hidden = false;
    panel.dataset.row = String(row);
  }

  function showPages() {
    if (!latest || view === "cards") return;
    const doc = latest.documents.find((d) => d.name === view);
    if (!doc) { pagesView.replaceChildren(el("p", { class: "muted", text: "The kit is being built…" })); return; }
    pagesView.replaceChildren(...doc.page_urls.map((url, i) => el("figure", {}, [
      el("a", { href: url, target: "_blank" },
         [el("img", { src: url, alt: doc.label + ", page " + (i + 1), loading: i < 4 ? "eager" : "lazy",
                      width: doc.page_px[0], height: doc.page_px[1] })]),
      el("figcaption", { text: doc.label + " · page " + (i + 1) + " of " + doc.pages })])));
  }

  function showStatus(state) {
    banner.hidden = !state.error;
    banner.textContent = state.error || "";
    status.classList.toggle("building", state.building);
    if (state.build === null) {
      status.textContent = state.building ? "Building…" : "No build yet: fix the error above and save.";
      downloads.replaceChildren();
      return;
    }
    const facts = state.deck_size + " cards, " + state.cards.length + " kinds · drawn in " + state.seconds.toFixed(1) + " s"
      + (state.kit_seconds === undefined ? "" : ", kit built in " + state.kit_seconds.toFixed(1) + " s");
    status.textContent = state.drawing ? "Drawing… (" + facts + ")"
      : state.building_kit ? "Cards up to date · building the kit… (" + facts + ")"
      : state.error ? "Showing the last good build · " + facts : "Up to date · " + facts;
    downloads.replaceChildren(...state.documents.map((d) =>
      el("a", { class: "button", href: d.url, download: "", title: "Download " + d.name },
         [d.label, el("span", { class: "pages", text: " (" + d.pages + " p.)" })])));
    warnings.replaceChildren(...state.warnings.map((w) => el("li", { text: w })));
  }

  async function show(state) {
    const before = latest;
    latest = state;
    showStatus(state);
    if (before && before.kit !== state.kit) showPages();
    if (state.build === null || state.build === shown) return;
    const number = state.build;
    const fresh = state.cards.map((c) => c.image).concat([state.back])
      .filter((url) => !grid.querySelector('img[src="' + url + '"]'));
    await loaded(fresh);
    if (latest.build !== number) return;      // a newer drawing arrived meanwhile
    shown = number;
    showCards(state);
    showPages();
    document.body.dataset.build = String(number);
    await showOutlines();
    if (opened !== null && figures.has(String(opened))) openPanel(opened); else if (opened !== null) panel.hidden = true;
  }

  for (const tab of document.querySelectorAll(".view-tabs button")) {
    tab.addEventListener("click", () => {
      view = tab.dataset.view;
      for (const t of document.querySelectorAll(".view-tabs button")) t.setAttribute("aria-selected", String(t === tab));
      grid.hidden = view !== "cards";
      pagesView.hidden = view === "cards";
      showPages();
    });
  }
  outlineSwitch.addEventListener("change", showOutlines);

  const source = new EventSource("/game/" + encodeURIComponent(game) + "/events");
  source.onmessage = (event) => show(JSON.parse(event.data));
})();
