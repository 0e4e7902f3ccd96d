// The simulator page: start a run (POST /game/<key>/simulations), poll its progress, then show
// the summary figures and the pages of balance.pdf.
"use strict";
(function () {
  const root = document.querySelector(".sim");
  const game = root.dataset.game;
  const $ = (id) => document.getElementById(id);
  const form = $("sim-form");
  const banner = $("error-banner");

  function el(tag, attrs, children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) { if (k === "text") node.textContent = v; else node.setAttribute(k, v); }
    for (const child of children || []) node.append(child);
    return node;
  }
  function showError(message) { banner.hidden = !message; banner.textContent = message || ""; }

  for (const chip of document.querySelectorAll("#policy-chips button")) {
    chip.addEventListener("click", () => {
      const input = form.elements.policy;
      input.value = input.value ? input.value.replace(/,\s*$/, "") + "," + chip.dataset.policy : chip.dataset.policy;
    });
  }

  function showResult(job) {
    const r = job.result;
    const rows = r.rows.map(([figure, value]) => el("tr", {}, [el("td", { text: figure }), el("td", { text: value })]));
    const parts = [el("h2", { text: "Played " + r.games + " games in " + r.seconds.toFixed(1) + " s" })];
    if (r.warning) parts.push(el("p", { class: "banner error", text: r.warning }));
    parts.push(el("table", { class: "summary" }, [el("tbody", {}, rows)]));
    parts.push(el("h2", { text: "Findings" }), el("ul", { class: "findings" }, r.findings.map((f) => el("li", { text: f }))));
    parts.push(el("p", {}, [el("a", { class: "button", href: r.pdf, download: "", text: "⤓ balance.pdf" })]));
    $("sim-result").replaceChildren(...parts);
    $("sim-result").hidden = false;
    $("sim-charts").replaceChildren(...r.page_urls.map((url, i) => el("figure", {}, [
      el("a", { href: url, target: "_blank" },
         [el("img", { src: url, alt: "balance.pdf page " + (i + 1), width: r.page_px[0], height: r.page_px[1] })]),
      el("figcaption", { text: "balance.pdf · page " + (i + 1) })])));
    $("sim-charts").hidden = false;
  }

  async function poll(url) {
    for (;;) {
      const job = await (await fetch(url)).json();
      $("progress").max = job.total;
      $("progress").value = job.done;
      $("progress-text").textContent = job.state === "waiting" ? "Waiting for the runs asked before it…"
        : job.done + " of " + job.total + " games";
      if (job.state === "done") { $("progress-panel").hidden = true; showResult(job); return; }
      if (job.state === "error") { $("progress-panel").hidden = true; showError(job.error); return; }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    showError(null);
    const number = (name) => Number(form.elements[name].value);
    const body = { games: number("games"), players: number("players"), seed: number("seed"),
                   policy: form.elements.policy.value,
                   set: form.elements.set.value.split("\n").map((s) => s.trim()).filter(Boolean) };
    $("run").disabled = true;
    $("sim-result").hidden = true;
    $("sim-charts").hidden = true;
    try {
      const response = await fetch("/game/" + encodeURIComponent(game) + "/simulations", {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
      const job = await response.json();
      if (!response.ok) { showError("Error: " + job.error); return; }
      $("progress-panel").hidden = false;
      await poll("/game/" + encodeURIComponent(game) + "/simulations/" + job.id);
    } finally {
      $("run").disabled = false;
    }
  });
})();
