// Live preview: listen to the game's event stream and show its last good build.
// A new build's pictures load in the background and replace the old ones all at once, so the
// page never shows half a build; an error shows in the banner above the build still on screen.
"use strict";
(function () {
  const grid = document.getElementById("view-cards");
  const game = grid.dataset.game;
  const pagesView = document.getElementById("view-pages");
  const banner = document.getElementById("error-banner");
  const status = document.getElementById("status");
  const downloads = document.getElementById("downloads");
  const warnings = document.getElementById("warnings");
  let shown = null;        // build number on screen
  let latest = null;       // the last state received
  let view = "cards";

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
    const img = el("img", { src: card.image, alt: card.name, loading: "eager", width: 275, height: Math.round(275 * ratio) });
    const dot = el("span", { class: "type-dot", title: card.type_label });
    dot.style.background = card.color;
    return el("figure", { "data-name": card.name }, [img,
      el("figcaption", {}, [el("span", { class: "name" }, [dot, card.name]),
                            el("span", { class: "copies", text: "×" + card.count })])]);
  }

  function showCards(state) {
    const ratio = state.card_px[1] / state.card_px[0];
    grid.style.setProperty("--card-ratio", state.card_px[0] + " / " + state.card_px[1]);
    const figures = state.cards.map((c) => cardFigure(c, ratio));
    const back = cardFigure({ name: "Back", image: state.back, count: state.deck_size, color: "#888", type_label: "back" }, ratio);
    back.querySelector(".copies").textContent = state.deck_size + " cards";
    grid.replaceChildren(...figures, back);
  }

  function showPages() {
    if (!latest || latest.build === null || view === "cards") return;
    const doc = latest.documents.find((d) => d.name === view);
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
    const facts = state.deck_size + " cards, " + state.cards.length + " kinds · built in " + state.seconds.toFixed(1) + " s";
    status.textContent = state.building ? "Rebuilding… (" + facts + ")"
      : state.error ? "Showing the last good build · " + facts : "Up to date · " + facts;
    downloads.replaceChildren(...state.documents.map((d) =>
      el("a", { class: "button", href: d.url, download: "", title: "Download " + d.name },
         [d.label, el("span", { class: "pages", text: " (" + d.pages + " p.)" })])));
    warnings.replaceChildren(...state.warnings.map((w) => el("li", { text: w })));
  }

  async function show(state) {
    latest = state;
    showStatus(state);
    if (state.build === null || state.build === shown) return;
    const number = state.build;
    await loaded(state.cards.map((c) => c.image).concat([state.back]));
    if (latest.build !== number) return;      // a newer build arrived meanwhile
    shown = number;
    showCards(state);
    showPages();
    document.body.dataset.build = String(number);
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

  const source = new EventSource("/game/" + encodeURIComponent(game) + "/events");
  source.onmessage = (event) => show(JSON.parse(event.data));
})();
