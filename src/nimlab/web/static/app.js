// nimlab playground: plain JavaScript over the JSON API (no build step).
"use strict";

const $ = (id) => document.getElementById(id);

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child);
  return node;
}

function showError(message) {
  const box = $("error");
  box.textContent = message;
  box.hidden = !message;
}

async function api(path, body) {
  const response = await fetch("/api/" + path, body === undefined ? {} : {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({ error: response.statusText }));
  if (!response.ok) {
    const message = data.error || JSON.stringify(data.detail) || response.statusText;
    showError(message);
    throw new Error(message);
  }
  showError("");
  return data;
}

// ---------------------------------------------------------------- tabs
const tabLoaders = {};
document.querySelectorAll(".tab").forEach((tab) => {
  tab.addEventListener("click", () => {
    document.querySelectorAll(".tab").forEach((t) => t.classList.toggle("active", t === tab));
    document.querySelectorAll(".panel").forEach((p) => { p.hidden = p.id !== "tab-" + tab.dataset.tab; });
    showError("");
    if (tabLoaders[tab.dataset.tab]) tabLoaders[tab.dataset.tab]();
  });
});

// ---------------------------------------------------------------- catalogue games
let catalogue = [];

function gameInfo(name) {
  return catalogue.find((g) => g.name === name) || { options: [], example: "" };
}

function showOptionFields() {
  const info = gameInfo($("game").value);
  document.querySelectorAll("#play-form .opt").forEach((label) => {
    label.hidden = !info.options.includes(label.dataset.opt);
  });
  $("game-summary").textContent = info.summary ? `${info.summary} Position: ${info.notation}.` : "";
}

function readOptions() {
  const info = gameInfo($("game").value);
  const options = {};
  if (info.options.includes("misere") && $("opt-misere").checked) options.misere = true;
  if (info.options.includes("set") && $("opt-set").value.trim()) options.set = $("opt-set").value.trim();
  if (info.options.includes("max") && $("opt-max").value.trim()) {
    options.max = Number($("opt-max").value.trim());
  }
  if (info.options.includes("code") && $("opt-code").value.trim()) options.code = $("opt-code").value.trim();
  return options;
}

async function loadGames() {
  const data = await api("games");
  catalogue = data.games;
  const select = $("game");
  const grundySelect = $("grundy-game");
  for (const game of catalogue) {
    if (game.playable) select.append(el("option", { value: game.name, text: game.name }));
    if (game.grundy_sequence) grundySelect.append(el("option", { value: game.name, text: game.name }));
  }
  select.value = "nim";
  grundySelect.value = "subtraction";
  showOptionFields();
}

$("game").addEventListener("change", () => {
  const info = gameInfo($("game").value);
  $("position").value = info.example;
  for (const key of ["set", "max", "code"]) $("opt-" + key).value = (info.defaults || {})[key] || "";
  showOptionFields();
});

// ---------------------------------------------------------------- play
const play = { request: null, state: null, history: [], over: false, busy: false };

function gameRequest(position) {
  return { game: play.request.game, position, options: play.request.options };
}

function setStatus(text, kind = "") {
  $("status").textContent = text;
  $("status").className = "status " + kind;
}

function renderBoard() {
  const state = play.state;
  const board = $("board");
  const moves = $("moves");
  board.replaceChildren();
  moves.replaceChildren();
  $("hint-panel").hidden = true;
  const clickable = state.name === "nim" && !play.over && !play.busy;
  const drawn = Boolean(state.heaps && state.heaps.every((h) => h <= 60));
  if (drawn) {
    state.heaps.forEach((size, heap) => {
      const row = el("div", { class: "heap", "data-heap": heap },
        el("span", { class: "label", text: (state.name === "staircase" ? "step " : "heap ") + heap }));
      for (let k = 0; k < size; k++) {
        const counter = el("button", {
          class: "counter", "data-heap": heap, "data-k": k, type: "button",
          title: clickable ? `take ${size - k} (heap ${heap}: ${size} -> ${k})` : "",
        });
        counter.disabled = !clickable;
        if (clickable) {
          counter.addEventListener("mouseenter", () => markFrom(heap, k, true));
          counter.addEventListener("mouseleave", () => markFrom(heap, k, false));
          counter.addEventListener("click", () => takeCounters(heap, k));
        }
        row.append(counter);
      }
      row.append(el("span", { class: "size", text: String(size) }));
      board.append(row);
    });
  } else {
    board.append(el("div", { class: "position", text: "Position: " + (state.position || "(empty)") }));
  }
  if (!state.moves && !play.over) {
    moves.append(el("p", { class: "summary", text: "Too many moves to list: type your move below." }));
  }
  if ((state.name !== "nim" || !drawn) && state.moves && !play.over) {
    for (const move of state.moves) {
      const button = el("button", { class: "move", type: "button", "data-to": move.to,
        text: `${move.label} → ${move.to || "(empty)"}` });
      button.disabled = play.busy;
      button.addEventListener("click", () => humanMove(move.to, move.label));
      moves.append(button);
    }
  }
  renderHistory();
  const canPlay = !play.over && !play.busy;
  $("hint").disabled = !canPlay;
  $("move-submit").disabled = !canPlay;
  $("undo").disabled = play.busy || !play.history.some((h) => h.by === "you");
}

function markFrom(heap, k, on) {
  document.querySelectorAll(`.counter[data-heap="${heap}"]`).forEach((c) => {
    if (Number(c.dataset.k) >= k) c.classList.toggle("marked", on);
  });
}

function takeCounters(heap, k) {
  const heaps = play.state.heaps.slice();
  const before = heaps[heap];
  heaps[heap] = k;
  humanMove(heaps.join(","), `heap ${heap}: ${before} -> ${k}`);
}

function renderHistory() {
  const list = $("history");
  list.replaceChildren();
  for (const entry of play.history) {
    list.append(el("li", { class: entry.by, text: `${entry.by}: ${entry.label} → ${entry.to || "(empty)"}` }));
  }
}

function finish(lastMover) {
  play.over = true;
  const moverWins = play.state.winner_at_end === "mover";
  // The player to move when play ends is the one who did not move last.
  const youWin = (lastMover === "you") !== moverWins;
  const rule = moverWins ? "the player unable to move wins (misère)" : "the player unable to move loses";
  setStatus(`Game over: ${youWin ? "you win!" : "the computer wins."} (${rule})`, youWin ? "won" : "lost");
}

async function computerTurn() {
  play.busy = true;
  setStatus("The computer is thinking…");
  renderBoard();
  try {
    const reply = await api("play/computer", gameRequest(play.state.position));
    play.history.push({ by: "computer", label: reply.move.label, to: reply.move.to, before: play.state.position });
    play.state = reply.state;
  } finally {
    play.busy = false;
  }
  if (play.state.over) finish("computer");
  else setStatus("Your move.");
  renderBoard();
}

async function humanMove(to, label) {
  if (play.over || play.busy) return;
  const before = play.state.position;
  const response = await api("play/move", { ...gameRequest(before), move: to });
  play.history.push({ by: "you", label, to: response.state.position, before });
  play.state = response.state;
  if (play.state.over) {
    finish("you");
    renderBoard();
    return;
  }
  await computerTurn();
}

async function startGame(event) {
  if (event) event.preventDefault();
  play.request = { game: $("game").value, options: readOptions() };
  play.history = [];
  play.over = false;
  play.busy = false;
  play.state = await api("play/state", gameRequest($("position").value.trim()));
  $("play-area").hidden = false;
  if (play.state.over) {
    play.over = true;
    setStatus("This position has no moves: nothing to play.");
    renderBoard();
    return;
  }
  setStatus("Your move.");
  renderBoard();
  if ($("starter").value === "computer") await computerTurn();
}

async function typedMove(event) {
  event.preventDefault();
  const text = $("move-input").value.trim();
  if (!text || play.over || play.busy) return;
  const before = play.state.position;
  const response = await api("play/move", { ...gameRequest(before), move: text });
  $("move-input").value = "";
  play.history.push({ by: "you", label: text, to: response.state.position, before });
  play.state = response.state;
  if (play.state.over) {
    finish("you");
    renderBoard();
    return;
  }
  await computerTurn();
}

function undo() {
  if (play.busy) return;
  let index = play.history.length - 1;
  while (index >= 0 && play.history[index].by !== "you") index--;
  if (index < 0) return;
  const before = play.history[index].before;
  play.history = play.history.slice(0, index);
  play.over = false;
  api("play/state", gameRequest(before)).then((state) => {
    play.state = state;
    setStatus("Your move (undone).");
    renderBoard();
  });
}

async function showHint() {
  const hint = await api("play/hint", gameRequest(play.state.position));
  const panel = $("hint-panel");
  const analysis = hint.analysis;
  const grundy = analysis.grundy === null ? "" : `Grundy value ${analysis.grundy}: `;
  $("hint-verdict").textContent = grundy + (analysis.outcome === "N"
    ? "an N-position, you (the player to move) can win."
    : "a P-position, every move loses against perfect play.");
  const table = $("nim-table");
  table.replaceChildren();
  if (hint.nim) {
    table.className = "nim";
    table.append(el("tr", {}, el("th", { text: "heap" }), el("th", { text: "size" }), el("th", { text: "binary" }),
      el("th", { text: "winning move" })));
    for (const row of hint.nim.rows) {
      table.append(el("tr", { class: row.target ? "target" : "", "data-heap": row.heap },
        el("td", { text: row.heap }), el("td", { text: row.size }), el("td", { text: row.binary }),
        el("td", { text: row.target ? `→ ${row.to}` : "" })));
    }
    table.append(el("tr", { class: "sum" }, el("td", { text: "" }), el("td", { text: "nim-sum" }),
      el("td", { text: hint.nim.nim_sum_binary }), el("td", { text: `= ${hint.nim.nim_sum}` })));
    table.hidden = false;
    $("hint-explanation").textContent = hint.nim.text;
  } else {
    table.hidden = true;
    const winning = analysis.winning_moves.map((m) => `${m.move} → ${m.to || "(empty)"}`);
    $("hint-explanation").textContent = hint.explanation +
      (winning.length ? `\nWinning move${winning.length > 1 ? "s" : ""}: ${winning.join("; ")}` : "");
  }
  const options = $("hint-options");
  options.replaceChildren();
  if (hint.options === null) {
    options.append(el("p", { class: "summary", text: hint.options_note }));
  } else {
    for (const option of hint.options) {
      const g = option.grundy === null ? "" : ` g=${option.grundy}`;
      const button = el("button", {
        class: `option opt-${option.outcome}`, type: "button", "data-to": option.to,
        "data-outcome": option.outcome, text: `${option.label} → ${option.to || "(empty)"}  ${option.outcome}${g}`,
      });
      button.addEventListener("click", () => humanMove(option.to, option.label));
      options.append(button);
    }
  }
  // Colour the counters too: counter k of heap i is the move heap i -> k.
  if (play.state.name === "nim" && hint.options) {
    const byTarget = new Map(hint.options.map((o) => [o.to, o.outcome]));
    document.querySelectorAll(".counter").forEach((counter) => {
      const heaps = play.state.heaps.slice();
      heaps[Number(counter.dataset.heap)] = Number(counter.dataset.k);
      const outcome = byTarget.get(heaps.join(","));
      if (outcome) counter.classList.add("hint-" + outcome);
    });
  }
  panel.hidden = false;
}

$("play-form").addEventListener("submit", (event) => { startGame(event).catch(() => {}); });
$("move-form").addEventListener("submit", (event) => { typedMove(event).catch(() => {}); });
$("hint").addEventListener("click", () => { showHint().catch(() => {}); });
$("undo").addEventListener("click", undo);

// ---------------------------------------------------------------- Scoring Nim
const scoring = { heaps: [], N: "0", turn: "you", scores: { you: "0", computer: "0" }, history: [], over: false };

// Exact rational arithmetic on "p/q" strings (scores may involve a fractional bonus N).
function parseFraction(text) {
  const [p, q] = String(text).split("/");
  return [BigInt(p), BigInt(q || "1")];
}
function gcd(a, b) { a = a < 0n ? -a : a; b = b < 0n ? -b : b; while (b) [a, b] = [b, a % b]; return a; }
function addFractions(x, y) {
  const [a, b] = parseFraction(x);
  const [c, d] = parseFraction(y);
  let p = a * d + c * b;
  let q = b * d;
  const g = gcd(p, q) || 1n;
  p /= g; q /= g;
  if (q < 0n) { p = -p; q = -q; }
  return q === 1n ? String(p) : `${p}/${q}`;
}

async function scoringRefresh() {
  const data = await api("scoring/play", { position: scoring.heaps, N: scoring.N });
  scoring.info = data;
  $("scoring-f").textContent = data.f_N;
  $("score-you").textContent = scoring.scores.you;
  $("score-computer").textContent = scoring.scores.computer;
  const board = $("scoring-board");
  board.replaceChildren();
  scoring.heaps.forEach((size, heap) => {
    const row = el("div", { class: "heap" }, el("span", { class: "label", text: "heap " + heap }));
    for (let k = 0; k < size; k++) {
      const counter = el("button", { class: "counter", type: "button", "data-heap": heap, "data-k": k });
      counter.disabled = scoring.over || scoring.turn !== "you";
      counter.addEventListener("click", () => scoringMove(scoring.heaps.map((h, i) => (i === heap ? k : h))));
      row.append(counter);
    }
    row.append(el("span", { class: "size", text: String(size) }));
    board.append(row);
  });
  $("scoring-options").replaceChildren();
  const list = $("scoring-history");
  list.replaceChildren();
  for (const entry of scoring.history) list.append(el("li", { class: entry.by, text: entry.text }));
  return data;
}

function scoringApply(by, to) {
  const option = scoring.info.options.find((o) => o.to.join(",") === to.join(","));
  const gained = option.bonus ? addFractions(String(option.taken), scoring.N) : String(option.taken);
  scoring.scores[by] = addFractions(scoring.scores[by], gained);
  scoring.history.push({ by, text: `${by}: takes ${option.taken}${option.bonus ? " and the bonus N" : ""} → ${to.join(",")}  (+${gained})` });
  scoring.heaps = to;
  scoring.over = !to.some((h) => h > 0);
}

function scoringFinish() {
  const diff = addFractions(scoring.scores.you, "-" + scoring.scores.computer);
  const [p] = parseFraction(diff);
  const verdict = p > 0n ? "you win" : p < 0n ? "the computer wins" : "a draw";
  $("scoring-status").textContent = `Game over: ${verdict} (you ${scoring.scores.you}, computer ${scoring.scores.computer}).`;
  $("scoring-status").className = "status " + (p > 0n ? "won" : p < 0n ? "lost" : "");
}

async function scoringComputer() {
  scoring.turn = "computer";
  const optimal = scoring.info.options.filter((o) => o.optimal);
  const choice = optimal[Math.floor(Math.random() * optimal.length)];
  scoringApply("computer", choice.to);
  scoring.turn = "you";
  await scoringRefresh();
  if (scoring.over) scoringFinish();
  else $("scoring-status").textContent = "Your move.";
}

async function scoringMove(to) {
  if (scoring.over || scoring.turn !== "you") return;
  scoringApply("you", to);
  scoring.turn = "computer";
  await scoringRefresh();
  if (scoring.over) { scoringFinish(); return; }
  await scoringComputer();
}

async function scoringStart(event) {
  event.preventDefault();
  scoring.heaps = $("scoring-position").value.split(",").map((s) => s.trim()).filter((s) => s).map(Number);
  scoring.N = $("scoring-n").value.trim();
  scoring.scores = { you: "0", computer: "0" };
  scoring.history = [];
  scoring.over = false;
  scoring.turn = "you";
  await scoringRefresh();
  $("scoring-area").hidden = false;
  $("scoring-status").className = "status";
  $("scoring-status").textContent = "Your move.";
  if ($("scoring-starter").value === "computer") await scoringComputer();
}

function scoringHint() {
  const box = $("scoring-options");
  box.replaceChildren();
  for (const option of scoring.info.options) {
    const button = el("button", {
      class: "option " + (option.optimal ? "optimal" : "suboptimal"), type: "button",
      text: `→ ${option.to.join(",")}  take ${option.taken}${option.bonus ? " + N" : ""}, net ${option.gain}`,
    });
    button.addEventListener("click", () => { scoringMove(option.to).catch(() => {}); });
    box.append(button);
  }
}

$("scoring-form").addEventListener("submit", (event) => { scoringStart(event).catch(() => {}); });
$("scoring-hint").addEventListener("click", scoringHint);

// ---------------------------------------------------------------- Explore
function parseOptionText(text) {
  const options = {};
  for (const item of text.split(";").map((s) => s.trim()).filter((s) => s)) {
    const [key, value] = item.split("=");
    if (value === undefined) options[key] = true;
    else options[key] = /^\d+$/.test(value) && key !== "set" && key !== "code" ? Number(value) : value;
  }
  return options;
}

async function grundyTable(event) {
  event.preventDefault();
  const game = $("grundy-game").value;
  const given = parseOptionText($("grundy-options").value);
  const options = Object.keys(given).length ? given : { ...(gameInfo(game).defaults || {}) };
  const data = await api("grundy", { game, upto: Number($("grundy-upto").value), options });
  const out = $("grundy-out");
  out.replaceChildren();
  out.append(el("p", { text: `${data.game}: g(n), n = ${data.meaning}` +
    (data.period ? `; period ${data.period}, preperiod ${data.preperiod} (proven)` : "") }));
  const table = el("table", { class: "grundy" });
  for (let start = 0; start < data.values.length; start += 20) {
    const head = el("tr", {}, el("th", { text: "n" }));
    const row = el("tr", {}, el("th", { text: "g" }));
    data.values.slice(start, start + 20).forEach((value, i) => {
      head.append(el("th", { text: start + i }));
      row.append(el("td", { class: value === 0 ? "zero" : "", text: value === null ? "-" : value }));
    });
    table.append(head, row);
  }
  out.append(table);
}

function plotSvg(breakpoints, slopeLeft, slopeRight, title) {
  const pts = breakpoints.map(([x, y]) => [fracValue(x), fracValue(y)]);
  const xs = pts.map((p) => p[0]);
  const lo = (xs.length ? Math.min(...xs) : 0) - 3;
  const hi = (xs.length ? Math.max(...xs) : 0) + 3;
  const first = pts.length ? pts[0] : [0, 0];
  const last = pts.length ? pts[pts.length - 1] : [0, 0];
  const all = [[lo, first[1] + slopeLeft * (lo - first[0])], ...pts, [hi, last[1] + slopeRight * (hi - last[0])]];
  const ys = all.map((p) => p[1]);
  const ylo = Math.min(...ys, 0) - 1;
  const yhi = Math.max(...ys, 0) + 1;
  const W = 640, H = 320, M = 30;
  const sx = (x) => M + ((x - lo) / (hi - lo)) * (W - 2 * M);
  const sy = (y) => H - M - ((y - ylo) / (yhi - ylo)) * (H - 2 * M);
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("class", "plot");
  svg.setAttribute("width", W);
  svg.setAttribute("height", H);
  const line = (x1, y1, x2, y2) => {
    const l = document.createElementNS(ns, "line");
    Object.entries({ x1, y1, x2, y2, class: "axis" }).forEach(([k, v]) => l.setAttribute(k, v));
    svg.append(l);
  };
  line(sx(lo), sy(0), sx(hi), sy(0));
  line(sx(0), sy(ylo), sx(0), sy(yhi));
  const path = document.createElementNS(ns, "polyline");
  path.setAttribute("class", "curve");
  path.setAttribute("points", all.map(([x, y]) => `${sx(x)},${sy(y)}`).join(" "));
  svg.append(path);
  for (const [x, y] of pts) {
    const label = document.createElementNS(ns, "text");
    label.setAttribute("x", sx(x) + 3);
    label.setAttribute("y", sy(y) - 4);
    label.textContent = `(${+x.toFixed(2)}, ${+y.toFixed(2)})`;
    svg.append(label);
  }
  const caption = document.createElementNS(ns, "text");
  caption.setAttribute("x", M);
  caption.setAttribute("y", 16);
  caption.textContent = title;
  svg.append(caption);
  return svg;
}

function fracValue(text) {
  const [p, q] = String(text).split("/").map(Number);
  return q ? p / q : p;
}

async function scoringPlot(event) {
  event.preventDefault();
  const position = $("plot-position").value.trim();
  const data = await api("scoring", { position });
  const out = $("plot-out");
  out.replaceChildren();
  out.append(plotSvg(data.breakpoints, data.slope_left, data.slope_right, `f_N(${position})`));
  out.append(el("p", { text: `breakpoints: ${data.breakpoints.map(([x, y]) => `(${x}, ${y})`).join(" ") || "none"}; ` +
    `slopes ${data.slope_left} / ${data.slope_right}; c+ = ${data.c_plus}, c- = ${data.c_minus}` }));
}

$("grundy-form").addEventListener("submit", (event) => { grundyTable(event).catch(() => {}); });
$("plot-form").addEventListener("submit", (event) => { scoringPlot(event).catch(() => {}); });

// ---------------------------------------------------------------- imperfect information
const RULES = {
  sn: "Schrödinger Nim: you see a heap's height only when you look at it (looking commits you to "
    + "play on that heap); after the opponent moves you are told which heap changed and whether it was emptied.",
  fsn: "Fuzzy Schrödinger Nim: as Schrödinger Nim, but you are not told when a heap is emptied; "
    + "looking at an empty heap lets you choose again.",
  kn: "Kriegspiel Nim: you never see the heaps; ask to remove i chips from heap j, and a request "
    + "for more than the heap holds is refused (you try again). You only learn that the opponent moved.",
  "kn-empty": "Kriegspiel Nim (kn-empty): a request for more chips than a heap holds empties it, "
    + "silently; the turn always passes.",
};
const hidden = { id: null, view: null };

function showHiddenRules() {
  $("hidden-rules").textContent = RULES[$("hidden-variant").value] +
    " Taking the last chip wins (misère: loses). The computer samples its moves from an exact equilibrium." +
    " Actions: j_i takes i chips from heap j (heaps numbered from 1), look j inspects heap j, try j_i asks the umpire.";
}

function renderHidden() {
  const view = hidden.view;
  $("hidden-area").hidden = false;
  $("hidden-you").textContent = view.you === "L" ? "L (first)" : "R (second)";
  $("hidden-knowledge").textContent = view.over ? `[${view.final.join(", ")}]` : view.knowledge;
  const actions = $("hidden-actions");
  actions.replaceChildren();
  for (const action of view.actions) {
    const button = el("button", { class: "move hidden-action", type: "button", "data-label": action.label,
      text: action.label });
    button.addEventListener("click", () => { hiddenAct(action.index).catch(() => {}); });
    actions.append(button);
  }
  $("hidden-hint").disabled = view.over;
  $("hidden-hint-out").replaceChildren();
  const seen = $("hidden-seen");
  seen.replaceChildren();
  for (const event of view.seen) seen.append(el("li", { text: event }));
  const status = $("hidden-status");
  if (view.over) {
    const won = view.winner === "you";
    status.textContent = `Game over: ${won ? "you win!" : "the computer wins."} ` +
      `(game value for L: ${view.value_for_L}${view.exact ? ", exact" : ""})`;
    status.className = "status " + (won ? "won" : "lost");
    const table = $("hidden-history");
    table.replaceChildren(el("tr", {}, el("th", { text: "#" }), el("th", { text: "who" }),
      el("th", { text: "action" }), el("th", { text: "saw" }), el("th", { text: "heaps before" }),
      el("th", { text: "heaps after" }), el("th", { text: "told the other" })));
    view.history.forEach((row, i) => {
      table.append(el("tr", { class: row.player }, el("td", { text: i + 1 }), el("td", { text: row.player }),
        el("td", { text: row.action }), el("td", { text: row.saw }), el("td", { text: row.before.join(",") }),
        el("td", { text: row.after.join(",") }), el("td", { text: row.told_opponent })));
    });
    $("hidden-reveal").hidden = false;
  } else {
    status.textContent = "Your move.";
    status.className = "status";
    $("hidden-reveal").hidden = true;
  }
}

async function hiddenStart(event) {
  event.preventDefault();
  const view = await api("hidden/new", {
    variant: $("hidden-variant").value, position: $("hidden-position").value.trim(),
    misere: $("hidden-misere").checked, first: $("hidden-first").value,
  });
  hidden.id = view.id;
  hidden.view = view;
  renderHidden();
}

async function hiddenAct(index) {
  if (!hidden.view || hidden.view.over) return;
  hidden.view = await api(`hidden/${hidden.id}/act`, { action: index });
  renderHidden();
}

async function hiddenHint() {
  const hint = await api(`hidden/${hidden.id}/hint`);
  const out = $("hidden-hint-out");
  out.replaceChildren(el("span", { class: "summary", text: `game value for you: ${hint.game_value_for_you}; equilibrium: ` }));
  for (const action of hint.actions) {
    const played = action.probability !== "0";
    out.append(el("span", { class: "option " + (played ? "optimal" : "suboptimal"),
      text: `${action.label}: ${action.probability}` }));
  }
}

const HIDDEN_EXAMPLES = { sn: "3,3,1", fsn: "3,3,1", kn: "3,2,1", "kn-empty": "3,3,1" };
$("hidden-variant").addEventListener("change", () => {
  $("hidden-position").value = HIDDEN_EXAMPLES[$("hidden-variant").value];
  showHiddenRules();
});
$("hidden-form").addEventListener("submit", (event) => { hiddenStart(event).catch(() => {}); });
$("hidden-hint").addEventListener("click", () => { hiddenHint().catch(() => {}); });
showHiddenRules();

async function solveSmall(event) {
  event.preventDefault();
  const data = await api("solve", { variant: $("solve-variant").value, position: $("solve-position").value.trim(),
    misere: $("solve-misere").checked, strategy: true });
  const out = $("solve-out");
  out.replaceChildren(el("p", { text: `${data.variant}(${data.position.join(",")})${data.misere ? " misère" : ""}: ` +
    `value ${data.value} for L (${data.exact ? "certified exact" : "not certified"}); ${data.nodes} nodes, ` +
    `${data.infosets} information sets` }));
  const table = el("table", { class: "strategy" }, el("tr", {}, el("th", { text: "player" }),
    el("th", { text: "knows" }), el("th", { text: "reached" }), el("th", { text: "after" }), el("th", { text: "plays" })));
  for (const entry of data.strategies || []) {
    const plays = Object.entries(entry.actions).map(([name, p]) => `${name} ${p}`).join(", ");
    table.append(el("tr", {}, el("td", { text: entry.player }), el("td", { class: "belief", text: entry.knows }),
      el("td", { text: entry.reach }), el("td", { text: entry.history.join("; ") || "start" }), el("td", { text: plays })));
  }
  out.append(table);
}
$("solve-form").addEventListener("submit", (event) => { solveSmall(event).catch(() => {}); });

loadGames().catch(() => {});
