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

function showTab(name) {
  document.querySelectorAll(".tab").forEach((t) => t.classList.toggle("active", t.dataset.tab === name));
  document.querySelectorAll(".panel").forEach((p) => { p.hidden = p.id !== "tab-" + name; });
  showError("");
  if (tabLoaders[name]) return tabLoaders[name]();
  return Promise.resolve();
}

document.querySelectorAll(".tab").forEach((tab) => {
  tab.addEventListener("click", () => { showTab(tab.dataset.tab); });
});

// The landing page's guided starts: each sets up a game and opens its tab.
const STARTS = {
  nim: async () => {
    await gamesLoaded;
    await showTab("play");
    $("game").value = "nim";
    $("game").dispatchEvent(new Event("change"));
    $("position").value = "3,4,5";
    $("starter").value = "you";
    $("rule").value = "normal";  // the guided starts teach normal play
    await startGame(null);
    showNimCard(play.state.heaps || [3, 4, 5]);
    setStatus("Your move. Click a counter to take it and every counter to its right: "
      + "after your move you will be told whether it keeps the win.");
  },
  kayles: async () => {
    await gamesLoaded;
    await showTab("play");
    $("game").value = "kayles";
    $("game").dispatchEvent(new Event("change"));
    $("starter").value = "you";
    $("rule").value = "normal";
    await startGame(null);
  },
  scoring: async () => {
    await gamesLoaded;
    await showTab("scoring");
    await scoringStart(null);
  },
  hidden: async () => {
    await gamesLoaded;
    await showTab("hidden");
    $("hidden-game").value = "nim";
    $("hidden-game").dispatchEvent(new Event("change"));
    $("hidden-variant").value = "kn";
    showHiddenRules();
    $("hidden-position").value = "2,2,1";
    await hiddenStart(null);
  },
};
document.querySelectorAll("[data-start]").forEach((button) => {
  button.addEventListener("click", () => { STARTS[button.dataset.start]().catch(() => {}); });
});

// The guided Nim start's card, before the first move: the nim-sum worked out on the heaps
// on the board, the goal (leave it 0), and "try it".
function showNimCard(heaps) {
  const card = $("nim-card");
  const width = Math.max(1, ...heaps.map((h) => h.toString(2).length));
  const bits = (n) => n.toString(2).padStart(width, "0");
  const sum = heaps.reduce((x, h) => x ^ h, 0);
  const table = el("table", { class: "nim" });
  heaps.forEach((h, i) => table.append(el("tr", {}, el("td", { text: `heap ${i + 1}` }), el("td", { text: h }),
    el("td", { class: "bits", text: bits(h) }))));
  table.append(el("tr", { class: "sum" }, el("td", { text: "nim-sum" }), el("td", { text: sum }),
    el("td", { class: "bits", text: bits(sum) })));
  const close = el("button", { type: "button", id: "nim-card-try", text: "Try it" });
  close.addEventListener("click", () => {
    card.hidden = true;
    const first = $("board").querySelector(".counter:not([disabled])");
    if (first) first.focus();
  });
  card.replaceChildren(
    el("h3", { text: "The secret of Nim: the nim-sum" }),
    el("p", { text: "Write each heap in binary and add the columns without carrying: a column with an odd " +
      "number of 1s gives 1, an even number gives 0. For these heaps:" }),
    table,
    el("p", { text: sum ? `The nim-sum is ${sum}, not 0. The goal: after your move the nim-sum must be 0. ` +
      "From a nim-sum of 0 every move makes it non-zero, and from a non-zero one there is always a move " +
      "back to 0, so whoever leaves 0 every time takes the last counter."
      : "The nim-sum is already 0: every move you make leaves a non-zero one, and the computer can always " +
        "bring it back to 0. Whoever leaves 0 every time takes the last counter." }),
    el("p", { text: sum ? "Try it: find the one heap whose size, added to the nim-sum without carrying, " +
      "gets smaller, and shrink it to that size." : "Try it anyway, or let the computer move first." }),
    close);
  card.hidden = false;
}

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
  document.querySelector("#play-form .side").hidden = !info.partisan;
  document.querySelector("#play-form .rule").hidden = !info.misere_play;
  const sides = info.name === "domineering" ? ["Left (vertical dominoes)", "Right (horizontal dominoes)"]
    : ["Blue (Left)", "Red (Right)"];
  $("side").options[0].textContent = sides[0];
  $("side").options[1].textContent = sides[1];
  $("game-summary").textContent = info.summary ? `${info.summary} Position: ${info.notation}.` : "";
  const typed = { "poker-nim": "heap amount, add heap amount, or heaps", "skip-nim": "heap amount, skip, or heaps",
    "red-blue-hackenbush": "stalk edge, or position", domineering: "row col (top or left cell), or board",
    hackenbush: "edge k, or graph" };
  $("move-input").placeholder = typed[info.name] || "heap amount, or position";
}

function readOptions() {
  const info = gameInfo($("game").value);
  const options = {};
  if (info.options.includes("set") && $("opt-set").value.trim()) options.set = $("opt-set").value.trim();
  if (info.options.includes("max") && $("opt-max").value.trim()) {
    options.max = Number($("opt-max").value.trim());
  }
  if (info.options.includes("code") && $("opt-code").value.trim()) options.code = $("opt-code").value.trim();
  for (const key of ["additions", "cap"]) {
    if (info.options.includes(key) && $("opt-" + key).value.trim()) options[key] = Number($("opt-" + key).value.trim());
  }
  if (info.options.includes("skips") && $("opt-skips").value.trim()) options.skips = $("opt-skips").value.trim();
  return options;
}

async function loadGames() {
  const data = await api("games");
  catalogue = data.games;
  loadHiddenGames(data);
  const select = $("game");
  const grundySelect = $("grundy-game");
  for (const game of catalogue) {
    if (game.playable) select.append(el("option", { value: game.name, text: game.name }));
    if (game.grundy_sequence) grundySelect.append(el("option", { value: game.name, text: game.name }));
  }
  select.value = "nim";
  grundySelect.value = "subtraction";
  showOptionFields();
  fillFromAddress();
}

// A link may open a tab (?tab=play; ?game=... opens play). Done on load, before the catalogue
// arrives: done after, it would take the reader away from a tab opened in the meantime.
function openTabFromAddress() {
  const query = new URLSearchParams(window.location.search);
  const tab = query.get("tab") || (query.has("game") ? "play" : "");
  if (tab && document.querySelector(`.tab[data-tab="${CSS.escape(tab)}"]`)) showTab(tab);
}

// A link may preset the game form: ?game=nimble&position=1,3,3,6&starter=computer&cap=9 ...
function fillFromAddress() {
  const query = new URLSearchParams(window.location.search);
  const game = query.get("game");
  if (game && gameInfo(game).playable) {
    $("game").value = game;
    $("game").dispatchEvent(new Event("change"));
  }
  if (query.has("position")) $("position").value = query.get("position");
  for (const key of ["set", "max", "code", "additions", "cap", "skips"]) {
    if (query.has(key)) $("opt-" + key).value = query.get(key);
  }
  if (query.has("misere")) $("rule").value = query.get("misere") !== "0" ? "misere" : "normal";
  if (["you", "computer"].includes(query.get("starter"))) $("starter").value = query.get("starter");
  if (["B", "L", "R"].includes(query.get("side"))) $("side").value = query.get("side") === "R" ? "R" : "B";
}

$("game").addEventListener("change", () => {
  const info = gameInfo($("game").value);
  $("position").value = info.example;
  for (const key of ["set", "max", "code", "additions", "cap", "skips"]) {
    $("opt-" + key).value = (info.defaults || {})[key] || "";
  }
  showOptionFields();
});

// ---------------------------------------------------------------- play
const play = { request: null, state: null, history: [], over: false, busy: false, hints: null, selected: null,
  toMove: "you", keyboard: false };

function gameRequest(position) {
  const request = { game: play.request.game, position, options: play.request.options };
  if (play.request.misere) request.misere = true;
  return request;
}

// One call of the play API for the player `who` ("you" or "computer"): impartial games under
// /api/play/, red-blue Hackenbush under /api/partisan/ (with the colour of the player to move).
function call(kind, position, who = "you", extra = {}) {
  if (play.request.partisan) {
    const side = play.request.side;
    const player = who === "you" ? side : side === "B" ? "R" : "B";
    return api("partisan/" + kind, { game: play.request.game, position, player, ...extra });
  }
  return api("play/" + kind, { ...gameRequest(position), ...extra });
}

// "Your move." and, for heaps of counters, what a click does (as the board does it).
function yourMoveText() {
  const name = play.state && play.state.name;
  if (name === "nim") return "Your move: click a counter to take it and every counter to its right.";
  if (name === "subtraction" && (play.state.heaps || []).every((h) => h <= 60)) {
    return "Your move: click a counter to take it and every counter to its right (the amounts the set allows).";
  }
  return "Your move.";
}

function setStatus(text, kind = "") {
  $("status").textContent = text;
  $("status").className = "status " + kind;
}

// ---------------------------------------------------------------- boards
// Every clickable board element stands for one legal move and carries data-to, the position
// after it (in the game's notation); the server checks every move again. A hint colours each
// such element with the outcome of its position (P: the move wins) and shows its Grundy value.
const SVG_NS = "http://www.w3.org/2000/svg";

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "text") node.textContent = value;
    else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child);
  return node;
}

function legalTargets() {
  return new Set((play.state.moves || []).map((m) => m.to));
}

function labelOf(to) {
  const move = (play.state.moves || []).find((m) => m.to === to);
  return move ? move.label : to;
}

function canClick() {
  return !play.over && !play.busy;
}

// Keyboard access: an SVG element that acts as a button is focusable (tabindex), announced as a
// button with a label, and activated by Enter or Space like a click. HTML buttons already are.
// `data-key` names it so that the focus survives a redraw of the board.
function activatable(node, key, label, handler) {
  node.dataset.key = key;
  node.setAttribute("aria-label", label);
  if (node instanceof SVGElement) {
    node.setAttribute("tabindex", "0");
    node.setAttribute("role", "button");
    node.classList.add("focusable");
    node.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        event.stopPropagation();
        play.keyboard = true;
        handler(event);
      }
    });
  } else {
    node.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") play.keyboard = true;
    });
  }
  node.addEventListener("click", (event) => { event.stopPropagation(); handler(event); });
}

// Mark a board element as the move to `to`: clickable (and focusable), and coloured once a hint
// is shown, with the Grundy value (or, red-blue Hackenbush, the value) of the position it leads
// to (`short`: the bare number, for counters).
function target(node, to, { short = false } = {}) {
  node.dataset.to = to;
  node.classList.add("target");
  const hint = play.hints && play.hints.get(to);
  if (hint) {
    node.classList.add("hint-" + hint.outcome);
    node.dataset.outcome = hint.outcome;
    if (hint.grundy !== null) node.dataset.grundy = hint.grundy;
    if (hint.grundy !== null && node.tagName === "BUTTON") {
      node.append(el("span", { class: "g", text: (short ? "" : "g=") + hint.grundy }));
    }
  }
  const worth = !hint ? "" : hint.value !== undefined ? " value " + hint.value : hint.grundy === null ? "" : " g=" + hint.grundy;
  const verdict = !hint ? "" : hint.outcome === "P" ? " (wins)" : " (loses)";
  const title = `${labelOf(to)} → ${to || "(empty)"}` + (hint ? `  ${hint.outcome}${worth}` : "");
  if (node instanceof SVGElement) node.append(svg("title", { text: title }));
  else node.title = title;
  if (canClick()) activatable(node, "to:" + to, title + verdict, () => moveTo(to));
  else if (node.tagName === "BUTTON") node.disabled = true;
}

// A board element that chooses a piece (a coin, a token) before its move is chosen.
function chooser(node, key, label, index) {
  if (canClick()) activatable(node, key, label, () => select(index, key));
  else if (node.tagName === "BUTTON") node.disabled = true;
}

function moveTo(to) {
  play.selected = null;
  humanMove(to, labelOf(to)).catch(() => {});
}

// Choose (or, chosen again, drop) a piece; the focus moves to its first target (or back to it).
function select(index, key) {
  play.selected = play.selected === index ? null : index;
  drawBoard();
  const board = $("board");
  const first = play.selected === null ? null : board.querySelector(".target");
  const back = key ? board.querySelector(`[data-key="${CSS.escape(key)}"]`) : null;
  if (first) first.focus();
  else if (back) back.focus();
}

function focusBoard(key) {
  const board = $("board");
  const found = key ? board.querySelector(`[data-key="${CSS.escape(key)}"]`) : null;
  const first = found || board.querySelector(".target, [data-key]:not([disabled])");
  if (first) first.focus();
}

// Nim (and other heap games without their own board): rows of counters, click one to take
// it and everything to its right.
function heapBoard(board, state, legal) {
  if (!state.heaps || !state.heaps.every((h) => h <= 60)) return false;
  const change = lastChange(state.heaps);
  state.heaps.forEach((size, heap) => {
    const changed = change && change.rows.has(heap);
    const row = el("div", { class: "heap" + (changed ? " last-move" : ""), "data-heap": heap },
      el("span", { class: "label", text: "heap " + (heap + 1) }));
    const counters = el("span", { class: "counters" });
    for (let k = 0; k < size; k++) {
      const heaps = state.heaps.slice();
      heaps[heap] = k;
      const to = heaps.join(",");
      const counter = el("button", { class: "counter", "data-heap": heap, "data-k": k, type: "button" });
      if (legal.has(to)) {
        target(counter, to, { short: true });
        counter.addEventListener("mouseenter", () => markFrom(heap, k, true));
        counter.addEventListener("mouseleave", () => markFrom(heap, k, false));
      } else counter.disabled = true;
      counters.append(counter);
    }
    for (let k = 0; changed && k < change.taken; k++) {
      counters.append(el("span", { class: "ghost-counter", title: "taken by the computer's last move" }));
    }
    row.append(counters, el("span", { class: "size", text: String(size) }));
    board.append(row);
  });
  return true;
}

// The computer's last move on a board of heaps (rows): the rows of the position now that it
// changed (between the unchanged heaps before and after them) and, when it took from one heap
// without splitting it, how many counters it took there.
function lastChange(heaps) {
  const last = play.lastComputer;
  if (!last || !heaps || play.state.position !== last.after) return null;
  const before = (last.before.split(";")[0].match(/\d+/g) || []).map(Number);
  const after = heaps;
  let p = 0;
  while (p < before.length && p < after.length && before[p] === after[p]) p++;
  let q = 0;
  while (q < before.length - p && q < after.length - p && before[before.length - 1 - q] === after[after.length - 1 - q]) q++;
  const rows = new Set();
  for (let j = p; j < after.length - q; j++) rows.add(j);
  const taken = before.length === after.length && rows.size === 1 && before[p] > after[p] ? before[p] - after[p] : 0;
  return { rows, taken };
}

function markFrom(heap, k, on) {
  document.querySelectorAll(`.counter[data-heap="${heap}"]`).forEach((c) => {
    if (Number(c.dataset.k) >= k) c.classList.toggle("marked", on);
  });
}

// Wythoff: a queen at (a, b) moves left, down or diagonally down-left towards (0, 0).
function wythoffBoard(board, state, legal) {
  const [a, b] = state.position.split(",").map(Number);
  if (!(a <= 40 && b <= 40)) return false;
  const grid = el("div", { class: "wythoff", style: `grid-template-columns: 2em repeat(${a + 1}, var(--square))` });
  for (let y = b; y >= 0; y--) {
    grid.append(el("span", { class: "axis", text: y }));
    for (let x = 0; x <= a; x++) {
      const to = `${x},${y}`;
      const square = el("button", { class: "square" + ((x + y) % 2 ? " dark" : ""), type: "button",
        "data-x": x, "data-y": y });
      const last = play.lastComputer && play.state.position === play.lastComputer.after ? play.lastComputer.before : null;
      if (last === to && !(x === a && y === b)) square.classList.add("last-queen");
      if (x === a && y === b) {
        square.classList.add("queen");
        square.append(el("span", { class: "piece", text: "♛" }));
        square.title = `the queen at (${a}, ${b})`;
        square.disabled = true;
      } else if (legal.has(to)) target(square, to);
      else square.disabled = true;
      grid.append(square);
    }
  }
  grid.append(el("span"));
  for (let x = 0; x <= a; x++) grid.append(el("span", { class: "axis", text: x }));
  board.append(grid, el("p", { class: "summary",
    text: "The queen moves left, down or diagonally down-left; whoever reaches (0, 0) wins. Click a square." }));
  return true;
}

// Silver Dollar: coins on cells 1, 2, ...; click a coin, then an empty cell on its left.
function silverDollarBoard(board, state, legal) {
  const cells = state.position ? state.position.split(",").map(Number) : [];
  const last = cells.length ? cells[cells.length - 1] : 0;
  if (last > 60) return false;
  const strip = el("div", { class: "strip" });
  const at = new Map(cells.map((c, i) => [c, i]));
  const chosen = play.selected;
  const moved = (index, to) => cells.map((c, i) => (i === index ? to : c)).join(",");
  const coinTargets = (index) => {
    const found = [];
    for (let t = (index ? cells[index - 1] : 0) + 1; t < cells[index]; t++) {
      if (legal.has(moved(index, t))) found.push(moved(index, t));
    }
    return found;
  };
  for (let c = 1; c <= Math.max(last, 1); c++) {
    const cell = el("button", { class: "cell", type: "button", "data-cell": c },
      el("span", { class: "num", text: c }));
    if (at.has(c)) {
      const index = at.get(c);
      const moves = coinTargets(index);
      const coin = el("span", { class: "coin" });
      cell.append(coin);
      cell.classList.add("has-coin");
      cell.dataset.coin = index;
      if (index === chosen) cell.classList.add("selected");
      if (play.hints && moves.some((to) => (play.hints.get(to) || {}).outcome === "P")) cell.classList.add("has-P");
      if (moves.length) chooser(cell, "coin:" + index, `coin at ${c}: choose it`, index);
      else cell.disabled = true;
      cell.title = moves.length ? `coin at ${c}: click it, then the cell to move it to` : `coin at ${c} cannot move`;
    } else if (chosen !== null && c < cells[chosen] && c > (chosen ? cells[chosen - 1] : 0)) {
      target(cell, moved(chosen, c));
    } else cell.disabled = true;
    strip.append(cell);
  }
  board.append(strip, el("p", { class: "summary", text: chosen === null
    ? "Click a coin (a green ring after a hint: it has a winning move), then the cell to slide it to."
    : `Coin at ${cells[chosen]} chosen: click the empty cell to slide it to (or the coin again to cancel).` }));
  return true;
}

// Turning Turtles and Twins: click a head, then the coin on its left to turn with it (Turning
// Turtles: or the head again to turn it alone).
function coinRowBoard(board, state, legal) {
  const coins = state.position;
  if (coins.length > 60) return false;
  const flip = (text, ...ks) => [...text].map((c, i) => (ks.includes(i + 1) ? (c === "H" ? "T" : "H") : c)).join("");
  const chosen = play.selected;
  const twins = state.name === "twins";
  const headTargets = (k) => {
    const found = twins ? [] : [flip(coins, k)];
    for (let t = 1; t < k; t++) found.push(flip(coins, k, t));
    return found.filter((to) => legal.has(to));
  };
  const row = el("div", { class: "strip" });
  [...coins].forEach((face, i) => {
    const k = i + 1;
    const coin = el("button", { class: `cell turtle ${face === "H" ? "head" : "tail"}`, type: "button", "data-k": k },
      el("span", { class: "num", text: k }), el("span", { class: "face", text: face }));
    if (chosen === k) {
      coin.classList.add("selected");
      if (!twins && legal.has(flip(coins, k))) target(coin, flip(coins, k));
      else chooser(coin, "head:" + k, `head at ${k}: drop it`, k);
    } else if (chosen !== null && k < chosen) {
      target(coin, flip(coins, chosen, k));
    } else if (chosen === null && face === "H" && headTargets(k).length) {
      if (play.hints && headTargets(k).some((to) => (play.hints.get(to) || {}).outcome === "P")) coin.classList.add("has-P");
      chooser(coin, "head:" + k, `head at ${k}: choose it`, k);
      coin.title = `head at ${k}: click it, then the coin to turn with it`;
    } else coin.disabled = true;
    row.append(coin);
  });
  const rule = twins ? "then the coin on its left to turn with it" : "then a coin on its left to turn with it, or the head again to turn it alone";
  const help = el("p", { class: "summary", text: chosen === null
    ? `Click a head (H), ${rule}.` : `Head at ${chosen} chosen: click ${twins ? "a coin on its left" : "a coin on its left, or the head again"}. ` });
  if (chosen !== null) help.append(el("button", { type: "button", class: "cancel", text: "cancel", onclick: () => select(chosen) }));
  board.append(row, help);
  return true;
}

// Staircase Nim: step i is drawn i units high with its coins on it; click a coin to move it
// and every coin above it down one step.
function staircaseBoard(board, state, legal) {
  const steps = state.heaps;
  if (!steps || !steps.every((h) => h <= 30)) return false;
  const stairs = el("div", { class: "stairs" });
  steps.forEach((size, step) => {
    const column = el("div", { class: "step" + (step % 2 ? " odd" : ""), "data-step": step });
    const pile = el("div", { class: "pile" });
    for (let k = size - 1; k >= 0; k--) {
      const after = steps.slice();
      after[step] = k;
      if (step) after[step - 1] += size - k;
      const to = after.join(",");
      const coin = el("button", { class: "counter", type: "button", "data-step": step, "data-k": k });
      if (step && legal.has(to)) {
        target(coin, to, { short: true });
        coin.addEventListener("mouseenter", () => markAbove(step, k, true));
        coin.addEventListener("mouseleave", () => markAbove(step, k, false));
      } else coin.disabled = true;
      pile.append(coin);
    }
    column.append(pile, el("div", { class: "tread", style: `height: ${2.6 + 1.4 * step}em` },
      el("span", { text: step ? `step ${step}` : "floor" }), el("b", { text: size })));
    stairs.append(column);
  });
  board.append(stairs, el("p", { class: "summary",
    text: "Click a coin to move it and the coins above it down one step. Odd steps (shaded) are the Nim heaps." }));
  return true;
}

function markAbove(step, k, on) {
  document.querySelectorAll(`.counter[data-step="${step}"]`).forEach((c) => {
    if (Number(c.dataset.k) >= k) c.classList.toggle("marked", on);
  });
}

// Green Hackenbush: the graph over the ground line; click an edge to cut it (what is no
// longer connected to the ground falls).
function parseEdges(text) {
  return text ? text.split(",").map((e) => e.trim().split("-")) : [];
}

function pruneEdges(edges) {
  const reached = new Set(["g"]);
  for (let grown = true; grown;) {
    grown = false;
    for (const [u, v] of edges) {
      if (reached.has(u) !== reached.has(v)) { reached.add(u); reached.add(v); grown = true; }
    }
  }
  return edges.filter(([u]) => reached.has(u));
}

function hackenbushBoard(board, state, legal) {
  const edges = parseEdges(state.position);
  if (edges.length > 40) return false;
  // Nodes in layers by distance from the ground.
  const depth = new Map([["g", 0]]);
  for (let frontier = ["g"]; frontier.length;) {
    const next = [];
    for (const node of frontier) {
      for (const [u, v] of edges) {
        for (const [p, q] of [[u, v], [v, u]]) {
          if (p === node && !depth.has(q)) { depth.set(q, depth.get(node) + 1); next.push(q); }
        }
      }
    }
    frontier = next;
  }
  const layers = [];
  for (const [node, d] of depth) if (node !== "g") (layers[d] = layers[d] || []).push(node);
  const W = 640, rowH = 90, ground = 40 + rowH * Math.max(1, layers.length - 1) + 20;
  const H = ground + 40;
  const pos = new Map();
  layers.forEach((nodes, d) => nodes.forEach((node, i) => pos.set(node, [W * (i + 1) / (nodes.length + 1), ground - rowH * d])));
  const drawing = svg("svg", { class: "hackenbush", width: W, height: H, viewBox: `0 0 ${W} ${H}` });
  drawing.append(svg("rect", { x: 0, y: ground, width: W, height: H - ground, class: "ground" }),
    svg("line", { x1: 0, y1: ground, x2: W, y2: ground, class: "ground-line" }));
  // Each edge to the ground gets its own foot on the ground line; g-g loops sit on it.
  const feet = new Map();
  let groundLoops = 0;
  const seen = new Map();
  const layer = svg("g");
  edges.forEach(([u, v], index) => {
    const key = [u, v].sort().join("-");
    const copy = seen.get(key) || 0;
    seen.set(key, copy + 1);
    let d;
    let mid;
    let t = 0.5;
    if (u === v) {
      let x, y;
      if (u === "g") { x = 30 + 50 * groundLoops++; y = ground; } else [x, y] = pos.get(u);
      const r = 16 + 8 * copy;
      d = `M ${x} ${y} C ${x - r * 1.6} ${y - r * 2.6}, ${x + r * 1.6} ${y - r * 2.6}, ${x} ${y}`;
      mid = [x, y - r * 2];
    } else {
      const [a, b] = u === "g" ? [v, u] : [u, v];
      const [x1, y1] = pos.get(a);
      let x2, y2;
      if (b === "g") {
        const n = feet.get(a) || 0;
        feet.set(a, n + 1);
        x2 = x1 + 40 * Math.ceil(n / 2) * (n % 2 ? 1 : -1);
        y2 = ground;
        t = 0.5 + 0.22 * Math.min(n, 2);
      } else [x2, y2] = pos.get(b);
      // (a straight edge is bent by a hair, so that its box is not flat: clickable everywhere)
      const bend = b === "g" || !copy ? 0.8 : 28 * Math.ceil(copy / 2) * (copy % 2 ? 1 : -1);
      const mx = (x1 + x2) / 2, my = (y1 + y2) / 2;
      const len = Math.hypot(x2 - x1, y2 - y1) || 1;
      const cx = mx - bend * (y2 - y1) / len, cy = my + bend * (x2 - x1) / len;
      d = `M ${x1} ${y1} Q ${cx} ${cy} ${x2} ${y2}`;
      // The point at t on the curve (labels of edges sharing a node sit at different heights).
      const at = (p, c, q) => (1 - t) * (1 - t) * p + 2 * t * (1 - t) * c + t * t * q;
      mid = [at(x1, cx, x2), at(y1, cy, y2)];
    }
    const to = pruneEdges(edges.filter((_, i) => i !== index)).map((e) => e.join("-")).join(",");
    const group = svg("g", { class: "edge", "data-edge": `${u}-${v}`, "data-index": index },
      svg("path", { d, class: "hit" }), svg("path", { d, class: "stroke" }));
    // a finger's target (44 px) around the middle of the edge, whichever way it runs
    group.append(svg("circle", { cx: mid[0], cy: mid[1], r: 22, class: "hit-dot" }));
    if (legal.has(to)) target(group, to);
    const hint = play.hints && play.hints.get(to);
    if (hint && hint.grundy !== null) {
      group.append(svg("text", { x: mid[0] + 8, y: mid[1] - 4, class: "g", text: `${hint.outcome} g=${hint.grundy}` }));
    }
    layer.append(group);
  });
  drawing.append(layer);
  for (const [node, [x, y]] of pos) {
    drawing.append(svg("circle", { cx: x, cy: y, r: 6, class: "node" }),
      svg("text", { x: x + 9, y: y + 4, class: "name", text: node }));
  }
  board.append(drawing, el("p", { class: "summary", text: "Click an edge to cut it; whatever is no longer connected to the ground falls." }));
  return true;
}

// Red-blue Hackenbush stalks: blue and red edges bottom-up; click an edge of your colour to
// cut it and everything above it. A hint rings each of your edges green (the cut wins) or red,
// with the exact value it leaves.
function stalksBoard(board, state, legal) {
  const stalks = state.position ? state.position.split(",") : [];
  // The computer's last cut: the edges it removed stay drawn as dashed ghosts (a stalk it cut
  // down entirely, as a ghost stalk in its place).
  const last = play.lastComputer && state.position === play.lastComputer.after ? play.lastComputer.before : null;
  const columns = stalks.map((stalk, i) => ({ stalk, index: i, ghost: "" }));
  if (last !== null) {
    const before = last ? last.split(",") : [];
    let i = 0;
    while (i < stalks.length && before[i] === stalks[i]) i++;
    if (i < before.length) {
      if (before.length === stalks.length) columns[i].ghost = before[i].slice(stalks[i].length);
      else columns.splice(i, 0, { stalk: "", index: null, ghost: before[i] });
    }
  }
  const tallest = Math.max(1, ...columns.map((c) => c.stalk.length + c.ghost.length));
  if (stalks.length > 12 || tallest > 16) return false;
  const edgeH = 44, gapX = 90, W = Math.max(300, gapX * columns.length + 40);
  const ground = 30 + edgeH * tallest, H = ground + 36;
  const drawing = svg("svg", { class: "hackenbush stalks", width: W, height: H, viewBox: `0 0 ${W} ${H}` });
  drawing.append(svg("rect", { x: 0, y: ground, width: W, height: H - ground, class: "ground" }),
    svg("line", { x1: 0, y1: ground, x2: W, y2: ground, class: "ground-line" }));
  const yours = state.player;
  columns.forEach(({ stalk, index: i, ghost }, c) => {
    const x = 60 + gapX * c;
    drawing.append(svg("text", { x: x - 4, y: H - 12, class: "name", text: i === null ? "cut" : i + 1 }));
    [...stalk].forEach((colour, e) => {
      const y1 = ground - edgeH * e, y2 = y1 - edgeH;
      const rest = stalk.slice(0, e);
      const to = stalks.map((s, j) => (j === i ? rest : s)).filter((s) => s).join(",");
      const group = svg("g", { class: `edge ${colour === "B" ? "blue" : "red"}`, "data-stalk": i, "data-edge": e + 1,
        "data-colour": colour }, svg("rect", { x: x - 22, y: y2, width: 44, height: edgeH, class: "hit" }),
      svg("path", { d: `M ${x} ${y1} L ${x} ${y2}`, class: "stroke" }));
      if (colour === yours && legal.has(to)) target(group, to);
      const hint = play.hints && colour === yours && play.hints.get(to);
      if (hint) group.append(svg("text", { x: x + 10, y: (y1 + y2) / 2 + 4, class: "g", text: `→ ${hint.value}` }));
      drawing.append(group);
      drawing.append(svg("circle", { cx: x, cy: y2, r: 4, class: "node" }));
    });
    [...ghost].forEach((colour, k) => {
      const e = stalk.length + k;
      const y1 = ground - edgeH * e, y2 = y1 - edgeH;
      drawing.append(svg("path", { d: `M ${x} ${y1} L ${x} ${y2}`,
        class: `ghost-edge ${colour === "B" ? "blue" : "red"}` }, svg("title", { text: "cut by the computer's last move" })));
    });
  });
  const name = yours === "B" ? "Blue" : "Red";
  board.append(drawing, el("p", { class: "summary", text: play.over ? "" :
    `${name} to move: click a ${name.toLowerCase()} edge to cut it and everything above it. ` +
    "Blue cuts blue edges, Red red ones; whoever cannot move loses." +
    (last !== null ? " Dashed: the edges the computer just cut." : "") }));
  return true;
}

// ---------------------------------------------------------------- partizan boards
// The side you play ("L" or "R"): the page sends B (Blue, Left) or R; Domineering's Left places
// vertical dominoes, Right horizontal ones.
function yourSide() {
  return play.request && play.request.side === "R" ? "R" : "L";
}

function sideName(side, game) {
  if (game === "domineering") return side === "L" ? "Left" : "Right";
  return side === "L" ? "Blue" : "Red";
}

// The cells a move covered: the '.' of `before` that are '#' in `after` (Domineering).
function coveredCells(before, after) {
  const a = (before || "").replace(/\//g, ""), b = (after || "").replace(/\//g, "");
  const cells = [];
  for (let i = 0; i < a.length && i < b.length; i++) if (a[i] === "." && b[i] === "#") cells.push(i);
  return cells;
}

// Domineering: a grid; Left's dominoes (vertical) blue, Right's (horizontal) red, the cells
// blocked at the start dark. Choose an empty cell, then the cell next to it (below or above it
// for Left, beside it for Right) to place your domino there. A hint colours each placement
// green (it wins) or red, with the value it leaves.
function domineeringBoard(board, state, legal) {
  const rows = state.position.split("/");
  const h = rows.length, w = rows[0].length;
  if (h > 8 || w > 8) return false;
  const flat = rows.join("");
  const start = (play.request.start || "").replace(/\//g, "");
  const S = 48, pad = 24;
  const drawing = svgBoard(pad + S * w + 8, pad + S * h + 8, "domineering", S - 4);
  const side = state.side || "L";
  const step = side === "L" ? w : 1;
  const after = (a, b) => {
    const cells = [...flat];
    cells[a] = "#";
    cells[b] = "#";
    const text = cells.join("");
    return Array.from({ length: h }, (_, r) => text.slice(r * w, (r + 1) * w)).join("/");
  };
  // the placements containing cell i: [other cell, position after]
  const placements = (i) => {
    const found = [];
    const r = Math.floor(i / w), c = i % w;
    const partners = side === "L" ? [[r + 1, c], [r - 1, c]] : [[r, c + 1], [r, c - 1]];
    for (const [pr, pc] of partners) {
      if (pr < 0 || pr >= h || pc < 0 || pc >= w) continue;
      const j = pr * w + pc;
      const to = after(Math.min(i, j), Math.max(i, j));
      if (flat[j] === "." && legal.has(to)) found.push([j, to]);
    }
    return found;
  };
  for (let c = 0; c < w; c++) drawing.append(svg("text", { x: pad + S * c + S / 2 - 4, y: 16, class: "num", text: c + 1 }));
  for (let r = 0; r < h; r++) drawing.append(svg("text", { x: 6, y: pad + S * r + S / 2 + 4, class: "num", text: r + 1 }));
  const chosen = play.selected;
  const partnersOfChosen = chosen === null ? new Map() : new Map(placements(chosen));
  for (let i = 0; i < flat.length; i++) {
    const r = Math.floor(i / w), c = i % w;
    const x = pad + S * c, y = pad + S * r;
    const blocked = start[i] === "#";
    const group = svg("g", { class: "cell" + (blocked ? " blocked" : flat[i] === "#" ? " covered" : ""),
      "data-cell": `${r + 1} ${c + 1}` }, svg("rect", { x: x + 2, y: y + 2, width: S - 4, height: S - 4, rx: 3, class: "hit cellbg" }));
    if (flat[i] === "." && !play.over) {
      const mine = placements(i);
      if (chosen === i) {
        group.classList.add("selected");
        chooser(group, "cell:" + i, `row ${r + 1} col ${c + 1} chosen: press again to drop it`, i);
      } else if (chosen !== null && partnersOfChosen.has(i)) {
        const to = partnersOfChosen.get(i);
        target(group, to);
        const hint = play.hints && play.hints.get(to);
        if (hint) group.append(svg("text", { x: x + 5, y: y + S / 2 + 4, class: "g", text: "→ " + shortValue(hint.value, 5) }));
      } else if (chosen === null && mine.length) {
        if (anyWinning(mine.map(([, to]) => to))) group.classList.add("has-P");
        group.classList.add("chooser");
        chooser(group, "cell:" + i, `row ${r + 1} col ${c + 1}: choose it, then the cell ${side === "L" ? "above or below" : "beside"} it`, i);
      }
    }
    drawing.append(group);
  }
  // the dominoes placed so far, from the history (you and the computer alternate)
  const you = yourSide();
  const last = play.lastComputer && state.position === play.lastComputer.after ? play.lastComputer : null;
  for (const entry of play.history) {
    const cells = coveredCells(entry.before, entry.to);
    if (cells.length !== 2) continue;
    const mover = entry.by === "you" ? you : you === "L" ? "R" : "L";
    const [a, b] = cells;
    const x = pad + S * (a % w), y = pad + S * Math.floor(a / w);
    const vertical = b - a === w;
    const isLast = last && entry.by === "computer" && entry.to === last.after && entry.before === last.before;
    drawing.append(svg("rect", { x: x + 6, y: y + 6, width: vertical ? S - 12 : 2 * S - 12, height: vertical ? 2 * S - 12 : S - 12,
      rx: 6, class: `domino ${mover === "L" ? "blue" : "red"}` + (isLast ? " last-domino" : "") },
    svg("title", { text: `${sideName(mover, "domineering")}'s domino` + (isLast ? " (the computer's last move)" : "") })));
  }
  board.append(drawing);
  const name = sideName(side, "domineering");
  help(board, play.over ? "" : chosen === null
    ? `${name} to move: choose an empty cell, then the cell ${side === "L" ? "below or above" : "beside"} it to place a ` +
      `${side === "L" ? "vertical" : "horizontal"} domino. Left places vertical dominoes (blue), Right horizontal ones (red); ` +
      "whoever cannot place loses." + (last ? " Outlined: the computer's last domino." : "")
    : `Row ${Math.floor(chosen / w) + 1} col ${chosen % w + 1} chosen: choose the cell ${side === "L" ? "below or above" : "beside"} it (or it again to drop it).`);
  return true;
}

// A value short enough to write on the board (the hint's list gives every value in full).
function shortValue(value, most = 9) {
  return value.length <= most ? value : value.slice(0, most - 1) + "…";
}

// "u-v:C" edges of a coloured graph (C in B, R, G; a bare u-v is green).
function colouredEdges(text) {
  return text ? text.split(",").map((e) => {
    const [ends, colour] = e.trim().split(":");
    const [u, v] = ends.split("-");
    return [u, v, (colour || "G").toUpperCase()];
  }) : [];
}

// Where each node of a graph is drawn: in layers by distance from the ground, laid out once
// from the start position so that nothing moves as edges fall.
function graphLayout(edges) {
  const depth = new Map([["g", 0]]);
  for (let frontier = ["g"]; frontier.length;) {
    const next = [];
    for (const node of frontier) {
      for (const [u, v] of edges) {
        for (const [p, q] of [[u, v], [v, u]]) {
          if (p === node && !depth.has(q)) { depth.set(q, depth.get(node) + 1); next.push(q); }
        }
      }
    }
    frontier = next;
  }
  const layers = [];
  for (const [node, d] of depth) if (node !== "g") (layers[d] = layers[d] || []).push(node);
  const widest = Math.max(1, ...layers.filter(Boolean).map((l) => l.length));
  const W = Math.max(300, Math.min(640, 80 * widest + 60)), rowH = 80;
  const ground = 30 + rowH * Math.max(1, layers.length - 1) + 10;
  const pos = new Map();
  layers.forEach((nodes, d) => nodes.forEach((node, i) => pos.set(node, [W * (i + 1) / (nodes.length + 1), ground - rowH * d])));
  return { W, H: ground + 36, ground, pos };
}

const EDGE_COLOURS = { B: "blue", R: "red", G: "green" };

// Hackenbush on a graph: blue, red and green edges drawn from the ground up; click an edge you
// may cut (Blue: blue or green, Red: red or green) to cut it; what loses touch with the ground
// falls. The computer's last cut (and what fell with it) stays dashed.
function graphBoard(board, state, legal) {
  const edges = colouredEdges(state.position);
  const startEdges = colouredEdges(play.request.start || state.position);
  if (startEdges.length > 40) return false;
  const { W, H, ground, pos } = graphLayout(startEdges);
  const drawing = svg("svg", { class: "hackenbush graph", width: W, height: H, viewBox: `0 0 ${W} ${H}` });
  drawing.append(svg("rect", { x: 0, y: ground, width: W, height: H - ground, class: "ground" }),
    svg("line", { x1: 0, y1: ground, x2: W, y2: ground, class: "ground-line" }));
  const byTyped = new Map((state.moves || []).map((m) => [m.typed, m.to]));
  const last = play.lastComputer && state.position === play.lastComputer.after ? play.lastComputer : null;
  const feet = new Map();
  const seen = new Map();
  let loops = 0;
  const curve = (u, v) => {
    const key = [u, v].sort().join("-");
    const copy = seen.get(key) || 0;
    seen.set(key, copy + 1);
    if (u === v) {
      let x, y;
      if (u === "g") { x = 30 + 50 * loops++; y = ground; } else [x, y] = pos.get(u);
      const r = 16 + 8 * copy;
      return { d: `M ${x} ${y} C ${x - r * 1.6} ${y - r * 2.6}, ${x + r * 1.6} ${y - r * 2.6}, ${x} ${y}`, mid: [x, y - r * 2] };
    }
    const [a, b] = u === "g" ? [v, u] : [u, v];
    const [x1, y1] = pos.get(a) || [W / 2, ground];
    let x2, y2;
    if (b === "g") {
      const n = feet.get(a) || 0;
      feet.set(a, n + 1);
      x2 = x1 + 40 * Math.ceil(n / 2) * (n % 2 ? 1 : -1);
      y2 = ground;
    } else [x2, y2] = pos.get(b) || [W / 2, ground];
    const bend = b === "g" || !copy ? 0.8 : 28 * Math.ceil(copy / 2) * (copy % 2 ? 1 : -1);
    const mx = (x1 + x2) / 2, my = (y1 + y2) / 2;
    const len = Math.hypot(x2 - x1, y2 - y1) || 1;
    const cx = mx - bend * (y2 - y1) / len, cy = my + bend * (x2 - x1) / len;
    return { d: `M ${x1} ${y1} Q ${cx} ${cy} ${x2} ${y2}`, mid: [0.25 * x1 + 0.5 * cx + 0.25 * x2, 0.25 * y1 + 0.5 * cy + 0.25 * y2] };
  };
  if (last) {
    // the computer's last cut and what fell with it: dashed ghosts (the cut edge thicker)
    const before = colouredEdges(last.before);
    const kept = new Map();
    for (const e of edges) kept.set(e.join(), (kept.get(e.join()) || 0) + 1);
    const cut = last.typed ? Number(last.typed.replace("edge ", "")) - 1 : -1;
    before.forEach((e, i) => {
      const k = e.join();
      if (kept.get(k)) { kept.set(k, kept.get(k) - 1); return; }
      const { d } = curve(e[0], e[1]);
      drawing.append(svg("path", { d, class: `ghost-edge ${EDGE_COLOURS[e[2]]}` + (i === cut ? " last-cut" : "") },
        svg("title", { text: i === cut ? "cut by the computer's last move" : "fell with the computer's last cut" })));
    });
    seen.clear(); feet.clear(); loops = 0;
  }
  const layer = svg("g");
  const labels = svg("g", { class: "labels" });
  edges.forEach(([u, v, colour], index) => {
    const { d, mid } = curve(u, v);
    const group = svg("g", { class: `edge ${EDGE_COLOURS[colour]}`, "data-edge": index + 1, "data-colour": colour },
      svg("path", { d, class: "hit" }), svg("path", { d, class: "stroke" }),
      svg("circle", { cx: mid[0], cy: mid[1], r: 22, class: "hit-dot" }));
    const to = byTyped.get(`edge ${index + 1}`);
    if (to !== undefined && legal.has(to)) {
      target(group, to);
      const hint = play.hints && play.hints.get(to);
      // (the value is drawn beside the edge, outside its group: the group's box stays the edge's)
      if (hint) {
        labels.append(svg("text", { x: mid[0], y: mid[1] - 26, "text-anchor": "middle",
          class: `g value-${hint.outcome}`, text: shortValue(hint.value, 7) }));
      }
    }
    group.append(svg("text", { x: mid[0] - 4, y: mid[1] + 4, class: "edge-num", text: index + 1 }));
    layer.append(group);
  });
  drawing.append(layer, labels);
  for (const [node, [x, y]] of pos) {
    if (edges.some(([u, v]) => u === node || v === node)) drawing.append(svg("circle", { cx: x, cy: y, r: 5, class: "node" }));
  }
  const name = sideName(state.side || "L", "hackenbush");
  board.append(drawing, el("p", { class: "summary", text: play.over ? "" :
    `${name} to move: click a ${name.toLowerCase()} or green edge to cut it; whatever loses touch with the ground falls. ` +
    "Blue (Left) cuts blue or green edges, Red (Right) red or green ones; whoever cannot move loses." +
    (last ? " Dashed: the computer's last cut and what fell with it." : "") }));
  return true;
}

// ---------------------------------------------------------------- SVG boards (keyboard too)
// Each board is one <svg>; every move is an SVG group holding a `.hit` shape (coloured by the
// hint, ringed when focused) and what is drawn on it. Groups are focusable buttons.
// `hit`: the smallest side of a move's hit shape; on a phone the board is drawn large enough for
// it to be 44 px (a finger), and scrolls inside its box if it must.
function svgBoard(width, height, name, hit = 44) {
  const scale = phone() ? Math.max(1, 45 / hit) : 1;
  return svg("svg", { class: "board-svg " + name, width: Math.ceil(width * scale), height: Math.ceil(height * scale),
    viewBox: `0 0 ${width} ${height}` });
}

function phone() {
  return window.matchMedia("(max-width: 640px)").matches;
}

// The Grundy value (or outcome) of a hinted SVG target, written at (x, y).
function hintLabel(group, to, x, y) {
  const hint = play.hints && play.hints.get(to);
  if (hint) group.append(svg("text", { x, y, class: "g", text: hint.grundy === null ? hint.outcome : "g=" + hint.grundy }));
}

function anyWinning(tos) {
  return Boolean(play.hints) && tos.some((to) => (play.hints.get(to) || {}).outcome === "P");
}

function help(board, text) {
  board.append(el("p", { class: "summary", text }));
}

// Nimble: coins on squares 0, 1, 2, ... (several may share one); choose a square's coins, then
// a square on its left to slide one coin to.
function nimbleBoard(board, state, legal) {
  const coins = state.position ? state.position.split(",").map(Number) : [];
  const last = coins.length ? Math.max(...coins) : 0;
  const count = new Map();
  for (const c of coins) count.set(c, (count.get(c) || 0) + 1);
  const tallest = Math.max(1, ...count.values());
  if (last > 40 || tallest > 12) return false;
  const S = 44, top = 10, cellH = 22 * tallest + 16;
  const drawing = svgBoard(S * (last + 1) + 20, top + cellH + 28, "nimble", S - 4);
  const chosen = play.selected;
  const moved = (from, to) => {
    const after = coins.slice();
    after[after.indexOf(from)] = to;
    return after.sort((a, b) => a - b).join(",");
  };
  const targetsOf = (from) => {
    const found = [];
    for (let t = 0; t < from; t++) if (legal.has(moved(from, t))) found.push(moved(from, t));
    return found;
  };
  for (let c = 0; c <= last; c++) {
    const x = 10 + S * c;
    const group = svg("g", { class: "square", "data-square": c },
      svg("rect", { x: x + 2, y: top, width: S - 4, height: cellH, rx: 4, class: "hit cellbg" }));
    for (let k = 0; k < (count.get(c) || 0); k++) {
      group.append(svg("circle", { cx: x + S / 2, cy: top + cellH - 16 - 22 * k, r: 9, class: "token coin" }));
    }
    group.append(svg("text", { x: x + S / 2 - 4, y: top + cellH + 18, class: "num", text: c }));
    const here = count.get(c) || 0;
    if (chosen === null && here && c > 0 && targetsOf(c).length) {
      if (anyWinning(targetsOf(c))) group.classList.add("has-P");
      group.classList.add("chooser");
      chooser(group, "square:" + c, `square ${c}: ${here} coin${here > 1 ? "s" : ""}; choose one to slide left`, c);
    } else if (chosen === c) {
      group.classList.add("selected");
      chooser(group, "square:" + c, `square ${c} chosen: press again to drop it`, c);
    } else if (chosen !== null && c < chosen && legal.has(moved(chosen, c))) {
      const to = moved(chosen, c);
      target(group, to);
      hintLabel(group, to, x + 6, top + 14);
    }
    drawing.append(group);
  }
  board.append(drawing);
  help(board, chosen === null ? "Choose a square with coins (a green ring after a hint: it has a winning move), then the square to slide a coin to."
    : `A coin on square ${chosen} chosen: choose the square on its left to slide it to (or square ${chosen} again to drop it).`);
  return true;
}

// 2-D Nim: counters on a grid; choose a counter, then a cell on its left (same row) or below it
// (same column).
function nim2dBoard(board, state, legal) {
  const counters = state.position ? state.position.split(",").map((t) => t.split(":").map(Number)) : [];
  const maxX = Math.max(1, ...counters.map((c) => c[0]));
  const maxY = Math.max(1, ...counters.map((c) => c[1]));
  if (maxX > 20 || maxY > 20) return false;
  const C = 38, left = 30, top = 10;
  const drawing = svgBoard(left + C * (maxX + 1) + 10, top + C * (maxY + 1) + 30, "nim2d", C - 2);
  const count = new Map();
  for (const [x, y] of counters) count.set(`${x}:${y}`, (count.get(`${x}:${y}`) || 0) + 1);
  const chosen = play.selected;
  const moved = (from, to) => {
    const after = counters.map((c) => c.slice());
    const index = after.findIndex(([x, y]) => `${x}:${y}` === from);
    after[index] = to;
    return after.sort((a, b) => a[0] - b[0] || a[1] - b[1]).map(([x, y]) => `${x}:${y}`).join(",");
  };
  const targetsOf = (key) => {
    const [x, y] = key.split(":").map(Number);
    const found = [];
    for (let t = 0; t < x; t++) found.push(moved(key, [t, y]));
    for (let t = 0; t < y; t++) found.push(moved(key, [x, t]));
    return found.filter((to) => legal.has(to));
  };
  const [cx, cy] = chosen === null ? [-1, -1] : chosen.split(":").map(Number);
  for (let y = maxY; y >= 0; y--) {
    drawing.append(svg("text", { x: 8, y: top + C * (maxY - y) + C / 2 + 4, class: "num", text: y }));
    for (let x = 0; x <= maxX; x++) {
      const key = `${x}:${y}`;
      const px = left + C * x, py = top + C * (maxY - y);
      const group = svg("g", { class: "cell", "data-cell": key },
        svg("rect", { x: px + 1, y: py + 1, width: C - 2, height: C - 2, rx: 3, class: "hit cellbg" }));
      const here = count.get(key) || 0;
      if (here) {
        group.append(svg("circle", { cx: px + C / 2, cy: py + C / 2, r: 11, class: "token" }));
        if (here > 1) group.append(svg("text", { x: px + C / 2 - 4, y: py + C / 2 + 4, class: "count", text: here }));
      }
      if (chosen === null && here && targetsOf(key).length) {
        if (anyWinning(targetsOf(key))) group.classList.add("has-P");
        group.classList.add("chooser");
        chooser(group, "cell:" + key, `counter at ${key}: choose it`, key);
      } else if (chosen === key) {
        group.classList.add("selected");
        chooser(group, "cell:" + key, `counter at ${key} chosen: press again to drop it`, key);
      } else if (chosen !== null && ((y === cy && x < cx) || (x === cx && y < cy))) {
        const to = moved(chosen, [x, y]);
        if (legal.has(to)) {
          target(group, to);
          hintLabel(group, to, px + 3, py + 11);
        }
      }
      drawing.append(group);
    }
  }
  for (let x = 0; x <= maxX; x++) {
    drawing.append(svg("text", { x: left + C * x + C / 2 - 4, y: top + C * (maxY + 1) + 16, class: "num", text: x }));
  }
  board.append(drawing);
  help(board, chosen === null ? "Choose a counter, then a cell on its left or below it to slide it to."
    : `Counter at ${chosen} chosen: choose a cell on its left or below it (or the counter again to drop it).`);
  return true;
}

// Octal games (Kayles, Dawson's Kayles, any code) and Grundy's game: rows of tokens. Choose the
// first token to take, then the last (the same token takes one); what is left on either side
// stays as one or two heaps. Where a heap may be split without taking, the gaps are moves too.
function octalBoard(board, state, legal) {
  const heaps = state.heaps;
  if (!heaps || heaps.length > 12 || heaps.some((h) => h > 30)) return false;
  const T = 26, left = 70, rowH = 46, top = 8;
  const widest = Math.max(1, ...heaps);
  const drawing = svgBoard(left + T * widest + 20, top + rowH * Math.max(1, heaps.length) + 4, "octal", T - 2);
  const chosen = play.selected === null ? null : play.selected.split(":").map(Number);
  const leaving = (h, parts) => {
    for (const order of [parts, parts.slice().reverse()]) {
      const to = [...heaps.slice(0, h), ...order, ...heaps.slice(h + 1)].join(",");
      if (legal.has(to)) return to;
    }
    return null;
  };
  const run = (h, i, j) => leaving(h, [i, heaps[h] - 1 - j].filter((n) => n > 0));
  const runsFrom = (h, i) => {
    const found = [];
    for (let j = i; j < heaps[h]; j++) if (run(h, i, j) !== null) found.push(run(h, i, j));
    return found;
  };
  const mark = (h, i, j, on) => {
    drawing.querySelectorAll(`.token-cell[data-heap="${h}"]`).forEach((node) => {
      const k = Number(node.dataset.k);
      if (k >= i && k <= j) node.classList.toggle("marked", on);
    });
  };
  const change = lastChange(heaps);
  heaps.forEach((size, h) => {
    const y = top + rowH * h;
    if (change && change.rows.has(h)) {
      drawing.append(svg("rect", { x: 2, y: y + 1, width: left + T * Math.max(size, 1), height: rowH - 8, rx: 5, class: "last-move-band" }));
    }
    drawing.append(svg("text", { x: 6, y: y + 24, class: "num", text: `heap ${h + 1}` }));
    for (let i = 0; i < size; i++) {
      const x = left + T * i;
      const group = svg("g", { class: "token-cell", "data-heap": h, "data-k": i },
        svg("rect", { x, y: y + 4, width: T - 2, height: 30, rx: 4, class: "hit" }),
        svg("circle", { cx: x + T / 2 - 1, cy: y + 19, r: 9, class: "token" }));
      if (chosen === null) {
        const runs = runsFrom(h, i);
        if (runs.length) {
          if (anyWinning(runs)) group.classList.add("has-P");
          group.classList.add("chooser");
          chooser(group, `token:${h}:${i}`, `heap ${h + 1}, token ${i + 1}: start taking here`, `${h}:${i}`);
        }
      } else if (chosen[0] === h && i >= chosen[1] && run(h, chosen[1], i) !== null) {
        const to = run(h, chosen[1], i);
        if (i === chosen[1]) group.classList.add("selected");
        target(group, to);
        hintLabel(group, to, x + 2, y + 2);
        for (const kind of ["mouseenter", "focus"]) group.addEventListener(kind, () => mark(h, chosen[1], i, true));
        for (const kind of ["mouseleave", "blur"]) group.addEventListener(kind, () => mark(h, chosen[1], i, false));
      } else if (chosen[0] === h && i === chosen[1]) {
        group.classList.add("selected");
        chooser(group, `token:${h}:${i}`, `heap ${h + 1}, token ${i + 1} chosen: press again to drop it`, `${h}:${i}`);
      }
      drawing.append(group);
    }
    if (chosen !== null) return;
    for (let g = 1; g < size; g++) {  // splits without taking (Grundy's game, codes 4.x)
      const to = leaving(h, [g, size - g]);
      if (to === null) continue;
      const x = left + T * g - 2;
      // where no token of the row is a move (Grundy's game), a gap may be as wide as a token
      const wide = !drawing.querySelector(`.token-cell.chooser[data-heap="${h}"]`);
      const gapW = wide ? T - 2 : 10;
      const gap = svg("g", { class: "gap", "data-heap": h, "data-gap": g },
        svg("rect", { x: x - gapW / 2, y: y + 2, width: gapW, height: 34, rx: 3, class: "hit" }),
        svg("line", { x1: x, y1: y + 6, x2: x, y2: y + 32, class: "split" }));
      target(gap, to);
      hintLabel(gap, to, x - 4, y + 44);
      drawing.append(gap);
    }
  });
  board.append(drawing);
  if (chosen !== null) {
    const text = el("p", { class: "summary", text: `From token ${chosen[1] + 1} of heap ${chosen[0] + 1}: choose the last token to take. ` });
    text.append(el("button", { type: "button", class: "cancel", text: "cancel", onclick: () => select(play.selected, `token:${chosen[0]}:${chosen[1]}`) }));
    board.append(text);
  } else {
    help(board, "Choose the first token to take (a green ring after a hint: a winning move starts there), then the last;"
      + " what is left on either side stays as one or two heaps." + (drawing.querySelector(".gap") ? " A gap between tokens splits the heap there." : ""));
  }
  return true;
}

// Poker Nim and Skip Nim: Nim heaps; click a counter to take it and those to its right. Poker
// Nim: the dashed slots up to the cap add counters (while you have additions); Skip Nim: pass.
function allowanceBoard(board, state, legal) {
  const heaps = state.heaps;
  const info = state.allowances;
  if (!heaps || !info) return false;
  const room = info.kind === "additions" ? info.cap : Math.max(1, ...heaps);
  if (room > 40 || heaps.length > 12) return false;
  const yours = play.toMove === "computer" ? info.other : info.mover;
  const theirs = play.toMove === "computer" ? info.mover : info.other;
  const byHeaps = new Map((state.moves || []).map((m) => [m.to.split(";")[0], m.to]));
  const T = 24, left = 70, rowH = 36, top = 6;
  const drawing = svgBoard(left + T * room + 20, top + rowH * heaps.length + 4, "allowance", T - 2);
  const change = lastChange(heaps);
  heaps.forEach((size, h) => {
    const y = top + rowH * h;
    if (change && change.rows.has(h)) {
      drawing.append(svg("rect", { x: 2, y: y + 1, width: left + T * Math.max(size, 1), height: rowH - 4, rx: 5, class: "last-move-band" }));
    }
    drawing.append(svg("text", { x: 6, y: y + 20, class: "num", text: `heap ${h + 1}` }));
    const slots = info.kind === "additions" ? room : size;  // Skip Nim adds nothing
    for (let k = 0; k < slots; k++) {
      const after = heaps.slice();
      after[h] = k < size ? k : k + 1;
      const to = byHeaps.get(after.join(","));
      const x = left + T * k;
      const group = svg("g", { class: k < size ? "counter-cell" : "slot", "data-heap": h, "data-k": k },
        svg("rect", { x, y: y + 2, width: T - 2, height: 28, rx: 4, class: "hit" }),
        svg("circle", { cx: x + T / 2 - 1, cy: y + 16, r: 8, class: k < size ? "token" : "ghost" }));
      if (to && !play.over) {
        target(group, to);
        hintLabel(group, to, x + 1, y + 1);
      }
      drawing.append(group);
    }
  });
  board.append(drawing);
  const line = el("p", { class: "allowances" });
  const kind = info.kind === "additions" ? "Additions" : "Skips";
  line.append(el("b", { text: `${kind} left:` }), ` you ${yours}, the computer ${theirs}` +
    (info.cap !== null ? `; no heap may exceed ${info.cap}.` : "."));
  const skip = byHeaps.get(heaps.join(","));
  if (info.kind === "skips" && skip && !play.over) {
    const button = el("button", { type: "button", class: "skip-move move", text: "Skip (pass)" });
    target(button, skip);
    line.append(" ", button);
  }
  board.append(line);
  help(board, info.kind === "additions"
    ? "Click a counter to take it and those to its right, or a dashed slot to add counters up to it (an addition spends one of yours)."
    : "Click a counter to take it and those to its right, or pass with Skip while you have skips.");
  return true;
}

const BOARDS = {
  "red-blue-hackenbush": stalksBoard,
  domineering: domineeringBoard,
  hackenbush: graphBoard,
  nim: heapBoard,
  subtraction: heapBoard,
  wythoff: wythoffBoard,
  "silver-dollar": silverDollarBoard,
  "turning-turtles": coinRowBoard,
  twins: coinRowBoard,
  staircase: staircaseBoard,
  "green-hackenbush": hackenbushBoard,
  nimble: nimbleBoard,
  nim2d: nim2dBoard,
  octal: octalBoard,
  kayles: octalBoard,
  "dawson-kayles": octalBoard,
  "grundy-game": octalBoard,
  "poker-nim": allowanceBoard,
  "skip-nim": allowanceBoard,
};

// Draw the board of the current position; false if the game has no board (or it is too big).
function drawBoard() {
  const state = play.state;
  const board = $("board");
  const active = document.activeElement;
  const focused = active && board.contains(active) && active.dataset ? active.dataset.key : null;
  board.replaceChildren();
  board.className = "board board-" + state.name;
  const drawer = BOARDS[state.name];
  const drawn = Boolean(drawer && state.moves && drawer(board, state, legalTargets()));
  if (play.over) board.querySelectorAll(".summary").forEach((help) => help.remove());
  if (!drawn) {
    board.append(el("div", { class: "position", text: "Position: " + (state.position || "(empty)") }));
  }
  if (focused) {
    const again = board.querySelector(`[data-key="${CSS.escape(focused)}"]`);
    if (again) again.focus();
  }
  return drawn;
}

function renderBoard() {
  const state = play.state;
  const moves = $("moves");
  if (play.shown !== state.position) {
    play.hints = null;
    play.selected = null;
    play.shown = state.position;
    $("hint-panel").hidden = true;
  }
  moves.replaceChildren();
  const drawn = drawBoard();
  if (!state.moves && !play.over) {
    moves.append(el("p", { class: "summary", text: "Too many moves to list: type your move below." }));
  }
  if (!drawn && state.moves && !play.over) {
    for (const move of state.moves) {
      const button = el("button", { class: "move", type: "button", "data-to": move.to,
        text: `${move.label} → ${move.to || "(empty)"}` });
      button.disabled = play.busy;
      button.addEventListener("click", () => humanMove(move.to, move.label));
      moves.append(button);
    }
  }
  renderHistory();
  const lost = !document.activeElement || document.activeElement === document.body;
  if (play.keyboard && lost && canClick()) focusBoard(null);
  const canPlay = !play.over && !play.busy;
  $("hint").disabled = !canPlay;
  $("move-submit").disabled = !canPlay;
  $("undo").disabled = play.busy || !play.history.some((h) => h.by === "you");
}

function renderHistory() {
  const list = $("history");
  list.replaceChildren();
  for (const entry of play.history) {
    const who = entry.by === "you" ? "you" : "the computer";
    const item = el("li", { class: entry.by + (entry.blunder ? " blunder" : ""),
      text: `${who}: ${entry.label}, leaving ${entry.to || "nothing"}` });
    if (entry.blunder) item.append(el("span", { class: "blunder-mark", text: " ✗ gave away the win" }));
    list.append(item);
  }
}

function finish(lastMover) {
  play.over = true;
  const moverWins = play.state.winner_at_end === "mover";
  // The player to move when play ends is the one who did not move last.
  const youWin = (lastMover === "you") !== moverWins;
  const who = lastMover === "you" ? "you" : "the computer";
  const rule = !moverWins ? "the player unable to move loses"
    : `misère play: the last move loses, and ${who} made it`;
  setStatus(`Game over: ${youWin ? "you win!" : "the computer wins."} (${rule})`, youWin ? "won" : "lost");
}

async function computerTurn() {
  play.busy = true;
  setStatus("The computer is thinking…");
  renderBoard();
  try {
    const before = play.state.position;
    const reply = await call("computer", before, "computer");
    const words = reply.move.words || reply.move.label;
    play.history.push({ by: "computer", label: reply.move.label || words, to: reply.move.to, before });
    const found = reply.move.source ? ` (${reply.move.source})` : "";
    showLastMove(`The computer played ${words}: ${before || "(empty)"} → ${reply.move.to || "(empty)"}${found}`);
    play.lastComputer = { before, after: reply.move.to, typed: reply.move.typed };
    play.state = reply.state;
    play.toMove = "you";
  } finally {
    play.busy = false;
  }
  if (play.state.over) finish("computer");
  else setStatus(yourMoveText());
  renderBoard();
}

async function humanMove(to, label) {
  if (play.over || play.busy) return;
  const before = play.state.position;
  play.busy = true;
  let response;
  try {
    response = await call("move", before, "you", { move: to });
  } finally {
    play.busy = false;
  }
  await afterYourMove(before, label, response);
}

// Your move is checked: say what it did (kept the win, gave it away), then the computer replies.
async function afterYourMove(before, label, response) {
  const feedback = response.feedback || { kind: "", text: `You played ${label}, leaving ${response.state.position || "nothing"}.` };
  play.history.push({ by: "you", label, to: response.state.position, before, blunder: feedback.kind === "gave-away" });
  play.state = response.state;
  play.toMove = "computer";
  play.lastComputer = null;
  $("nim-card").hidden = true;
  showFeedback(feedback);
  if (play.state.over) {
    finish("you");
    renderBoard();
    return;
  }
  await computerTurn();
}

function showFeedback(feedback) {
  const line = $("feedback");
  line.hidden = !feedback;
  if (!feedback) return;
  line.textContent = feedback.text;
  line.className = "feedback" + (feedback.kind ? " feedback-" + feedback.kind : "");
}

// The computer's move, shown as a move (and flashed, so the eye finds it) above the board.
function showLastMove(text) {
  const line = $("last-move");
  line.hidden = !text;
  line.textContent = text || "";
  line.classList.remove("flash");
  void line.offsetWidth; // restart the animation
  if (text) line.classList.add("flash");
}

async function startGame(event) {
  if (event) event.preventDefault();
  const partisan = gameInfo($("game").value).partisan === true;
  const name = $("game").value;
  if (name === "poker-nim" && !$("opt-cap").value.trim()) {
    // A cap is needed to list the additions: the default, or the largest heap if larger.
    const largest = Math.max(0, ...($("position").value.split(";")[0].match(/\d+/g) || []).map(Number));
    $("opt-cap").value = String(Math.max(Number((gameInfo(name).defaults || {}).cap || 20), largest));
  }
  const misere = !partisan && gameInfo(name).misere_play === true && $("rule").value === "misere";
  play.request = { game: name, options: partisan ? {} : readOptions(), partisan, side: $("side").value,
    start: $("position").value.trim(), misere };
  play.history = [];
  play.over = false;
  play.busy = false;
  play.shown = null;
  play.toMove = $("starter").value === "computer" ? "computer" : "you";
  showFeedback(null);
  showLastMove(null);
  play.lastComputer = null;
  $("nim-card").hidden = true;
  play.state = await call("state", $("position").value.trim(), $("starter").value);
  $("play-area").hidden = false;
  const ruleNote = $("rule-note");
  ruleNote.hidden = !play.state.misere;
  ruleNote.textContent = play.state.misere ? "Misère play: whoever makes the last move loses. " +
    "The computer plays the misère winning moves; the hint says where they come from." : "";
  const note = $("start-note");
  note.textContent = play.state.start_note || "";
  note.hidden = !(play.state.start_note && $("starter").value === "you");
  if (play.state.over) {
    play.over = true;
    setStatus("This position has no moves: nothing to play.");
    renderBoard();
    return;
  }
  setStatus(yourMoveText());
  renderBoard();
  if ($("starter").value === "computer") await computerTurn();
}

async function typedMove(event) {
  event.preventDefault();
  const text = $("move-input").value.trim();
  if (!text || play.over || play.busy) return;
  const before = play.state.position;
  const response = await call("move", before, "you", { move: text });
  $("move-input").value = "";
  const listed = (play.state.moves || []).find((m) => m.to === response.state.position);
  await afterYourMove(before, listed ? listed.label : text, response);
}

function undo() {
  if (play.busy) return;
  let index = play.history.length - 1;
  while (index >= 0 && play.history[index].by !== "you") index--;
  if (index < 0) return;
  const before = play.history[index].before;
  play.history = play.history.slice(0, index);
  play.over = false;
  play.lastComputer = null;
  showFeedback(null);
  showLastMove(null);
  call("state", before).then((state) => {
    play.state = state;
    play.toMove = "you";
    setStatus("Your move (undone).");
    renderBoard();
  });
}

// A red-blue Hackenbush hint in the shape of an impartial one: a move is green ("P") when it
// wins (it leaves a value >= 0 for Blue, <= 0 for Red), red otherwise; each shows its value.
// Domineering and Hackenbush graphs: values are canonical forms (±1, 1/2*, {2|-1/2}); a move
// wins when the opponent, moving next, loses (Left: the value left is >= 0; Right: <= 0).
function partisanHint(hint) {
  const left = hint.player !== "R";
  const you = sideName(left ? "L" : "R", hint.name);
  const [plus, minus] = hint.name === "domineering" ? ["Left", "Right"] : ["Blue", "Red"];
  const wins = hint.moves.some((m) => m.winning);
  const winning = hint.moves.filter((m) => m.winning).map((m) => ({ move: m.label, to: m.to }));
  const verdict = `Value ${hint.value} (positive favours ${plus}, negative ${minus}): you (${you}, to move) ` +
    (wins ? "win against any defence; a green move leaves a position the computer, moving next, loses."
      : "lose against perfect play; the computer answers by the exact value.") +
    " Each of your moves: green if it wins, red if it loses, with the value it leaves.";
  return { analysis: { grundy: null, outcome: wins ? "N" : "P", winning_moves: winning },
    options: hint.moves.map((m) => ({ ...m, grundy: null })), explanation: hint.explanation, nim: null, verdict };
}

async function showHint() {
  const position = play.state.position;
  const answer = await call("hint", position);
  const hint = answer.partisan ? partisanHint(answer) : answer;
  const panel = $("hint-panel");
  panel.querySelector(".legend").hidden = Boolean(answer.partisan);
  const analysis = hint.analysis;
  const grundy = analysis.grundy === null ? "" : `Grundy value ${analysis.grundy}: `;
  const misere = hint.misere ? "Misère play (the last move loses): " : "";
  const source = hint.source ? ` (${hint.source})` : "";
  $("hint-verdict").textContent = hint.verdict || misere + grundy + (analysis.outcome === "N"
    ? "an N-position, you (the player to move) can win"
    : "a P-position, every move loses against perfect play") + source + ".";
  const table = $("nim-table");
  table.replaceChildren();
  if (hint.nim) {
    table.className = "nim";
    table.append(el("tr", {}, el("th", { text: "heap" }), el("th", { text: "size" }), el("th", { text: "binary" }),
      el("th", { text: "winning move" })));
    for (const row of hint.nim.rows) {
      table.append(el("tr", { class: row.target ? "target" : "", "data-heap": row.heap },
        el("td", { text: row.heap + 1 }), el("td", { text: row.size }), el("td", { text: row.binary }),
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
      // a partizan move is told in Left/Right terms ("leaves -1/2: Red (Right) wins"), never P/N
      const g = option.grundy === null || option.grundy === undefined ? "" : ` g=${option.grundy}`;
      const result = option.verdict !== undefined ? option.verdict : `${option.outcome}${g}`;
      const button = el("button", {
        class: `option opt-${option.outcome}`, type: "button", "data-to": option.to,
        "data-outcome": option.outcome, text: `${option.label} → ${option.to || "(empty)"}  ${result}`,
      });
      button.addEventListener("click", () => humanMove(option.to, option.label));
      options.append(button);
    }
  }
  // Colour the board too: every board element is a move, coloured like the option it makes.
  if (hint.options && position === play.state.position) {
    play.hints = new Map(hint.options.map((o) => [o.to, o]));
    drawBoard();
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
function negate(text) {
  const [p, q] = parseFraction(text);
  return q === 1n ? String(-p) : `${-p}/${q}`;
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

function compareFractions(x, y) {
  const [a, b] = parseFraction(x);
  const [c, d] = parseFraction(y);
  const left = a * d, right = c * b;  // denominators are positive
  return left < right ? -1 : left > right ? 1 : 0;
}

// The move from `before` to `after` in words, heaps numbered from 1 (when the server gave none).
function scoringWords(before, after) {
  const heap = before.findIndex((h, i) => h !== after[i]);
  if (heap < 0) return "no move";
  const last = after.some((h) => h > 0) ? "" : " (the last counter)";
  return `take ${before[heap] - after[heap]} from heap ${heap + 1}${last}`;
}

// The option of the current position that leads to `to` (words and feedback filled in when
// the server sent none).
function scoringOption(to) {
  const option = (scoring.info.options || []).find((o) => o.to.join(",") === to.join(","));
  if (!option) return null;
  const words = option.words || scoringWords(scoring.heaps, option.to);
  const shortfall = option.shortfall !== undefined ? option.shortfall
    : option.optimal ? "0" : addFractions(scoring.info.f_N, negate(option.gain));
  const feedback = option.feedback || (shortfall === "0" ? `Best play: that move nets ${option.gain}.`
    : `That move nets ${shortfall} fewer than best play` +
      (scoring.info.best ? `; the best was ${scoring.info.best}.` : "."));
  return { ...option, words, shortfall, feedback };
}

// The options of the position (none asked for once the table is empty: the game is over).
async function scoringRefresh() {
  if (scoring.info && !scoring.heaps.some((h) => h > 0)) {
    scoring.info = { ...scoring.info, options: [], best: null, over: true };
  } else {
    scoring.info = await api("scoring/play", { position: scoring.heaps, N: scoring.N });
  }
  scoringDraw();
  return scoring.info;
}

// The board: a row of counters per heap; click a counter to take it and every counter to its
// right. The counters the computer just took stay drawn as dashed ghosts, highlighted.
function scoringDraw() {
  $("scoring-f").textContent = scoring.over ? "–" : scoring.info.f_N;
  $("score-you").textContent = scoring.scores.you;
  $("score-computer").textContent = scoring.scores.computer;
  const board = $("scoring-board");
  board.replaceChildren();
  const last = scoring.lastComputer;
  const canMove = !scoring.over && scoring.turn === "you" && !scoring.busy;
  scoring.heaps.forEach((size, heap) => {
    const taken = last && last.heap === heap ? last.taken : 0;
    const row = el("div", { class: "heap" + (taken ? " last-move" : ""), "data-heap": heap },
      el("span", { class: "label", text: "heap " + (heap + 1) }));
    const counters = el("span", { class: "counters" });
    for (let k = 0; k < size; k++) {
      const counter = el("button", { class: "counter", type: "button", "data-heap": heap, "data-k": k,
        "aria-label": `heap ${heap + 1}: take ${size - k}` });
      counter.disabled = !canMove;
      counter.addEventListener("click", () => {
        scoringMove(scoring.heaps.map((h, i) => (i === heap ? k : h))).catch(() => {});
      });
      counter.addEventListener("mouseenter", () => markScoring(heap, k, true));
      counter.addEventListener("mouseleave", () => markScoring(heap, k, false));
      counters.append(counter);
    }
    for (let k = 0; k < taken; k++) {
      counters.append(el("span", { class: "ghost-counter", title: "taken by the computer's last move" }));
    }
    row.append(counters, el("span", { class: "size", text: String(size) }));
    board.append(row);
  });
  $("scoring-hint").disabled = !canMove;
  $("scoring-options").replaceChildren();
  const list = $("scoring-history");
  list.replaceChildren();
  for (const entry of scoring.history) {
    const item = el("li", { class: entry.by + (entry.blunder ? " blunder" : ""), text: entry.text });
    if (entry.blunder) item.append(el("span", { class: "blunder-mark", text: ` ✗ ${entry.blunder}` }));
    list.append(item);
  }
}

function markScoring(heap, k, on) {
  document.querySelectorAll(`#scoring-board .counter[data-heap="${heap}"]`).forEach((c) => {
    if (Number(c.dataset.k) >= k) c.classList.toggle("marked", on);
  });
}

function scoringApply(by, option) {
  const before = scoring.heaps;
  const gained = option.bonus ? addFractions(String(option.taken), scoring.N) : String(option.taken);
  scoring.scores[by] = addFractions(scoring.scores[by], gained);
  const who = by === "you" ? "you" : "the computer";
  const blunder = option.shortfall !== "0"
    ? `${option.shortfall} point${option.shortfall === "1" ? "" : "s"} fewer than best play` : "";
  scoring.history.push({ by, blunder,
    text: `${who}: ${option.words} (+${gained}${option.bonus ? ", the bonus N included" : ""}), leaving ${option.to.join(",")}` });
  const heap = before.findIndex((h, i) => h !== option.to[i]);
  scoring.lastComputer = by === "computer" ? { heap, taken: before[heap] - option.to[heap] } : null;
  scoring.heaps = option.to.slice();
  scoring.over = !scoring.heaps.some((h) => h > 0);
  return gained;
}

function scoringFinish() {
  const diff = addFractions(scoring.scores.you, negate(scoring.scores.computer));
  const [p] = parseFraction(diff);
  const verdict = p > 0n ? "you win" : p < 0n ? "the computer wins" : "a draw";
  $("scoring-status").textContent = `Game over: ${verdict} (you ${scoring.scores.you}, computer ${scoring.scores.computer}).`;
  $("scoring-status").className = "status " + (p > 0n ? "won" : p < 0n ? "lost" : "");
}

function scoringYourTurn() {
  $("scoring-status").className = "status";
  $("scoring-status").textContent = "Your move: click a counter to take it and every counter to its right.";
}

// The computer plays an optimal move (one that gains f_N); should the list lack one, the move
// that gains the most.
async function scoringComputer() {
  scoring.turn = "computer";
  const options = (scoring.info.options || []).map((o) => scoringOption(o.to)).filter((o) => o);
  if (!options.length) return;
  let choices = options.filter((o) => o.shortfall === "0");
  if (!choices.length) {
    const best = options.reduce((m, o) => (compareFractions(o.gain, m.gain) > 0 ? o : m));
    choices = options.filter((o) => compareFractions(o.gain, best.gain) === 0);
  }
  const choice = choices[Math.floor(Math.random() * choices.length)];
  const gained = scoringApply("computer", choice);
  const line = $("scoring-last");
  line.hidden = false;
  line.textContent = `The computer played: ${choice.words} (+${gained}${choice.bonus ? ", the bonus N included" : ""}).`;
  line.classList.remove("flash");
  void line.offsetWidth;
  line.classList.add("flash");
  scoring.turn = "you";
  await scoringRefresh();
  if (scoring.over) scoringFinish();
  else scoringYourTurn();
}

async function scoringMove(to) {
  if (scoring.over || scoring.turn !== "you" || scoring.busy) return;
  const option = scoringOption(to);
  if (!option) return;
  scoring.busy = true;
  try {
    scoringApply("you", option);
    const box = $("scoring-feedback");
    box.hidden = false;
    box.textContent = `You played: ${option.words}. ${option.feedback}`;
    box.className = "feedback " + (option.shortfall === "0" ? "feedback-kept" : "feedback-gave-away");
    $("scoring-last").hidden = true;
    scoring.turn = "computer";
    await scoringRefresh();
    if (scoring.over) { scoringFinish(); return; }
    $("scoring-status").textContent = "The computer is thinking…";
    await scoringComputer();
  } finally {
    scoring.busy = false;
    scoringDraw();
  }
}

async function scoringStart(event) {
  if (event) event.preventDefault();
  scoring.heaps = $("scoring-position").value.split(",").map((s) => s.trim()).filter((s) => s).map(Number);
  scoring.N = $("scoring-n").value.trim();
  scoring.scores = { you: "0", computer: "0" };
  scoring.history = [];
  scoring.over = false;
  scoring.busy = false;
  scoring.lastComputer = null;
  scoring.info = null;
  scoring.turn = "you";
  $("scoring-feedback").hidden = true;
  $("scoring-last").hidden = true;
  await scoringRefresh();
  $("scoring-area").hidden = false;
  scoring.over = scoring.info.over || !scoring.heaps.some((h) => h > 0);
  if (scoring.over) {
    $("scoring-status").className = "status";
    $("scoring-status").textContent = "These heaps are empty: nothing to play.";
    scoringDraw();
    return;
  }
  scoringYourTurn();
  if ($("scoring-starter").value === "computer") {
    $("scoring-status").textContent = "The computer is thinking…";
    scoring.busy = true;
    try { await scoringComputer(); } finally { scoring.busy = false; scoringDraw(); }
  }
}

function scoringHint() {
  const box = $("scoring-options");
  box.replaceChildren();
  if (scoring.over || scoring.turn !== "you") return;
  box.append(el("p", { class: "summary", text: `Best play nets ${scoring.info.f_N} (that is f_N)` +
    (scoring.info.best ? `, e.g. ${scoring.info.best}` : "") + ". Each move, with what it nets:" }));
  for (const { to } of scoring.info.options || []) {
    const option = scoringOption(to);
    const button = el("button", {
      class: "option " + (option.shortfall === "0" ? "optimal" : "suboptimal"), type: "button",
      "data-to": option.to.join(","),
      text: `${option.words}: nets ${option.gain}` + (option.shortfall === "0" ? " (best)" : ` (${option.shortfall} fewer)`),
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
  $("grundy-out").replaceChildren();  // a failed request leaves no stale result under its error
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
  // drawn in a 640 x 320 box, scaled to the width of the page (a phone's too)
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("width", W);
  svg.setAttribute("height", H);
  svg.setAttribute("preserveAspectRatio", "xMinYMin meet");
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
  $("plot-out").replaceChildren();
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
// The variants (their titles and rules) and the games they apply to come from /api/games.
const hidden = { id: null, view: null, variants: [], games: [], words: new Map(), unit: null, step: 0 };

function hiddenGameInfo() {
  return hidden.games.find((g) => g.name === $("hidden-game").value) || { name: "nim", options: [], hidden: [] };
}

function loadHiddenGames(data) {
  const typed = $("hidden-position").value.trim();  // typed before the catalogue arrived
  hidden.variants = data.variants;
  $("solve-variant").replaceChildren(...data.variants.map((v) =>
    el("option", { value: v.name, text: v.name, title: `${v.title}: ${v.summary}` })));
  hidden.games = data.games.filter((g) => g.hidden.length > 0);
  const select = $("hidden-game");
  select.replaceChildren(...hidden.games.map((g) => el("option", { value: g.name, text: g.name })));
  select.value = "nim";
  showHiddenGame();
  if (typed) $("hidden-position").value = typed;
}

function showHiddenGame() {
  const info = hiddenGameInfo();
  const variant = $("hidden-variant");
  const chosen = variant.value;
  const title = (v) => (info.name === "nim" ? v.title : v.title.replace("Nim", info.name));
  variant.replaceChildren(...hidden.variants.filter((v) => info.hidden.includes(v.name))
    .map((v) => el("option", { value: v.name, text: `${title(v)} (${v.name})` })));
  if (info.hidden.includes(chosen)) variant.value = chosen;
  $("hidden-position").value = info.hidden_example || info.example;
  document.querySelectorAll("#hidden-form .hopt").forEach((label) => {
    label.hidden = !info.options.includes(label.dataset.opt);
    const input = label.querySelector("input");
    input.value = (info.defaults && info.defaults[label.dataset.opt]) || "";
  });
  showHiddenRules();
}

const UNITS = { nim: "heap", nimble: "heap", subtraction: "heap", octal: "row", kayles: "row",
  "dawson-kayles": "row", "grundy-game": "row", nim2d: "counter", "red-blue-hackenbush": "stalk" };

function hiddenUnit(view) {
  const first = view && view.components && view.components[0];
  if (first) return first.unit || first.name.split(" ")[0];
  return hidden.unit || UNITS[(view && view.game) || $("hidden-game").value] || "heap";
}

function showHiddenRules() {
  const entry = hidden.variants.find((v) => v.name === $("hidden-variant").value);
  const game = $("hidden-game").value;
  const unit = UNITS[game] || "component";
  const title = entry ? (game === "nim" ? entry.title : entry.title.replace("Nim", game)) : "";
  const view = hidden.view;
  const same = view && view.rules && view.variant === $("hidden-variant").value && view.game === game;
  const rules = same ? view.rules.replace(/\.?$/, ".") : (entry ? `${title}: ${entry.summary}.` : "");
  $("hidden-rules").textContent = `${rules} Played on the ${unit}s of ${game} (numbered from 1); the player who ` +
    "cannot move loses (misère: wins). The computer samples its moves from an exact equilibrium. Each " +
    `${unit} is drawn with what you know of it (faint: may not be there); press an action beside it.`;
}

// ---- a sign for exact values: "+1/3", "0", "-1"
function signed(value) {
  const text = String(value);
  return text.startsWith("-") || text === "0" ? text : "+" + text;
}

// The words of an action label (the server's `words`, remembered; else the label read as
// "component_amount", the papers' notation for heaps).
function labelWords(label) {
  if (hidden.words.has(label)) return hidden.words.get(label);
  const unit = hiddenUnit(hidden.view);
  let m = label.match(/^look (\d+)$/);
  if (m) return `look at ${unit} ${m[1]}`;
  m = label.match(/^try (.*)$/);
  if (m) return "ask the umpire for " + labelWords(m[1]);
  m = label.match(/^(\d+)_(\d+)$/);
  if (m) return `${unit} ${m[1]}: remove ${m[2]}`;
  return label;
}

function rememberWords(items) {
  for (const item of items || []) {
    const label = item.label !== undefined ? item.label : item.action;
    if (label !== undefined && item.words) hidden.words.set(String(label), item.words);
  }
}

// What you saw, in words: looks, the umpire's answers, the announcements of the computer's moves.
function eventWords(event) {
  const unit = hiddenUnit(hidden.view);
  let m = event.match(/^try (.*) -> (done|refused)$/);
  if (m) {
    const asked = "You " + labelWords("try " + m[1]).replace(/^ask /, "asked ");
    return m[2] === "done" ? `${asked}; the umpire: "done".` : `${asked}; the umpire: "impossible" (ask again).`;
  }
  m = event.match(/^look (\d+) -> (.*)$/);
  if (m) return `You looked at ${unit} ${m[1]}: ${stateWords(unit, m[2])}.`;
  if (event === "opponent moved" || event === "opponent: moved") return "The umpire: the computer has moved.";
  m = event.match(/^opponent: (.*)$/);
  if (m) {
    const emptied = m[1].match(/^(\w+ \d+) emptied$/);
    if (emptied) return `The computer moved in ${emptied[1]} and emptied it.`;
    if (/^\w+ \d+$/.test(m[1])) return `The computer moved in ${m[1]}.`;
    return `The computer played ${labelWords(m[1])}.`;
  }
  return `You played ${labelWords(event)}.`;
}

// What the other player was told of a move by `mover`.
function toldWords(mover, other, signal) {
  if (!signal || signal === "moved") return `${other} told only that ${mover} moved`;
  const emptied = signal.match(/^(\w+ \d+) emptied$/);
  if (emptied) return `${other} told: ${mover} moved in ${emptied[1]} and emptied it`;
  if (/^\w+ \d+$/.test(signal)) return `${other} told: ${mover} moved in ${signal}`;
  return `${other} told: ${mover} played ${labelWords(signal)}`;
}

function stateWords(unit, state) {
  const text = String(state);
  if (unit === "stalk") return text ? `${text.length} edge${text.length > 1 ? "s" : ""} (${[...text].map((c) => (c === "B" ? "blue" : "red")).join(", ")} from the ground up)` : "cut down";
  if (unit === "row") {
    if (/^\d+$/.test(text)) return Number(text) ? `${text} pin${text === "1" ? "" : "s"} standing` : "no pins left";
    // a picture: x a pin, . a gap, | a cut between neighbours; the parts by their positions
    const parts = [];
    let position = 1, part = null;
    for (const c of text + ".") {
      if (c === "x") {
        if (!part) { part = [position, position]; parts.push(part); }
        part[1] = position++;
      } else {
        part = null;
        if (c === ".") position++;
      }
    }
    if (!parts.length) return "no pins left";
    const named = parts.map(([a, b]) => (a === b ? `${a}` : `${a}–${b}`));
    const one = parts.length === 1 && parts[0][0] === parts[0][1];
    return `pin${one ? "" : "s"} ${named.join(" and ")} standing` + (parts.length > 1 ? ` (${parts.length} parts)` : "");
  }
  if (unit === "heap") return `${text} counter${text === "1" ? "" : "s"}`;
  return text;
}

// ---- drawing a component: `states` are its possible states (strings or numbers); `known`
// the server's short form ("3", "≤2", "{2,3}").
function drawComponent(unit, states, known) {
  const box = el("span", { class: "hidden-drawing " + unit });
  if (!states.length) return box;
  if (unit === "heap") {
    const sizes = states.map(Number);
    const low = Math.min(...sizes), high = Math.max(...sizes);
    const chips = el("span", { class: "hidden-chips" });
    for (let c = 1; c <= low; c++) chips.append(el("span", { class: "chip" }));
    if (high > low) {
      const band = el("span", { class: "band", title: `${high - low} more counters may be there` });
      for (let c = low + 1; c <= high; c++) band.append(el("span", { class: "chip maybe" }));
      band.append(el("span", { class: "band-label", text: known && known.startsWith("≤") ? known : `${low}–${high}` }));
      chips.append(band);
    }
    box.append(chips);
    return box;
  }
  states.forEach((state, i) => {
    if (i) box.append(el("span", { class: "or", text: "or" }));
    box.append(drawState(unit, String(state)));
  });
  return box;
}

function drawState(unit, text) {
  if (unit === "row") {
    const row = el("span", { class: "pins", title: stateWords("row", text) });
    const picture = /^\d+$/.test(text) ? "x".repeat(Number(text)) : text;
    for (const c of picture) {
      if (c === "x") row.append(el("span", { class: "pin" }));
      else if (c === ".") row.append(el("span", { class: "pin down" }));
      else row.append(el("span", { class: "cut" }));
    }
    return row;
  }
  if (unit === "stalk") {
    const h = 20, n = Math.max(text.length, 1);
    const drawing = svg("svg", { class: "mini-stalk", width: 24, height: h * n + 8, viewBox: `0 0 24 ${h * n + 8}`,
      role: "img", "aria-label": stateWords("stalk", text) });
    drawing.append(svg("line", { x1: 0, y1: h * n + 4, x2: 24, y2: h * n + 4, class: "ground-line" }));
    [...text].forEach((c, e) => {
      const y1 = h * n + 4 - h * e;
      drawing.append(svg("line", { x1: 12, y1, x2: 12, y2: y1 - h, class: c === "B" ? "blue" : "red" }));
      drawing.append(svg("circle", { cx: 12, cy: y1 - h, r: 2.5, class: "node" }));
    });
    return el("span", { class: "stalk-wrap" }, drawing);
  }
  return el("span", { class: "state", text: unit === "counter" ? `at ${text}` : text });
}

// The server's knowledge string "[3, ≤1, {2,3}]" (one entry per component), parsed.
function parseKnowledge(text) {
  const inner = String(text || "").replace(/^\[/, "").replace(/\]$/, "");
  const parts = [];
  let depth = 0, current = "";
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i];
    if (c === "{") depth++;
    if (c === "}") depth--;
    if (c === "," && depth === 0) {
      parts.push(current.trim());
      current = "";
      if (inner[i + 1] === " ") i++;
    } else current += c;
  }
  if (inner.length || parts.length) parts.push(current.trim());
  return parts.map((part) => {
    if (part.startsWith("{")) return { known: part, states: part.slice(1, -1).split(",") };
    const band = part.match(/^≤(\d+)$/);
    if (band) return { known: part, states: ["0", band[1]] };
    return { known: part, states: [part] };
  });
}

function knownWords(unit, states, known) {
  if (states.length === 1) {
    if (unit !== "heap") return stateWords(unit, states[0]);
    return Number(states[0]) ? `exactly ${states[0]}` : "empty";
  }
  if (known && known.startsWith("≤")) return `at most ${known.slice(1)}`;
  return "one of " + (unit === "heap" ? states.join(", ") : states.map((x) => stateWords(unit, x)).join("; "));
}

// A board of components: one row each, its name, its drawing and what is known in words.
function componentsBoard(unit, entries, cls = "") {
  const board = el("div", { class: "hidden-board " + cls });
  entries.forEach(({ states, known }, k) => {
    const row = el("div", { class: "hidden-row", "data-component": k },
      el("span", { class: "hidden-name", text: `${unit} ${k + 1}` }),
      drawComponent(unit, states, known),
      el("span", { class: "hidden-known", text: knownWords(unit, states, known) }));
    board.append(row);
  });
  return board;
}

function renderHidden() {
  const view = hidden.view;
  $("hidden-area").hidden = false;
  rememberWords(view.actions);
  rememberWords(view.history);
  const you = view.you_words || (view.you === "L" ? "you move first" : "the computer moves first");
  const expected = view.expected_for_you !== undefined ? view.expected_for_you
    : view.you === "L" ? view.value_for_L : negate(view.value_for_L);
  $("hidden-you").textContent = you.charAt(0).toUpperCase() + you.slice(1) + ".";
  $("hidden-value").textContent = `Your expected result ${signed(expected)}: you win with probability ${winChance(view, expected)}` +
    ` when both sides play the equilibrium (+1 is a sure win, -1 a sure loss)${view.exact === false ? "; not certified exact" : ""}.`;
  showHiddenRules();
  drawHiddenBoard(view);
  $("hidden-hint").disabled = view.over;
  $("hidden-hint").hidden = view.over;
  $("hidden-hint-out").replaceChildren();
  const seen = $("hidden-seen");
  seen.replaceChildren();
  // (told from the raw events, not the server's seen_words: these also give the umpire's "done")
  for (const event of view.seen) seen.append(el("li", { text: eventWords(event) }));
  $("hidden-seen-none").hidden = view.seen.length > 0;
  const status = $("hidden-status");
  if (view.over) {
    const won = view.winner === "you";
    status.textContent = `Game over: ${won ? "you win!" : "the computer wins."}`;
    status.className = "status " + (won ? "won" : "lost");
    hidden.step = 0;
    renderReplay();
    $("hidden-reveal").hidden = false;
  } else {
    status.textContent = "Your move: press an action beside a " + hiddenUnit(view) + ".";
    status.className = "status";
    $("hidden-reveal").hidden = true;
  }
}

// p = (1 + value) / 2, from the server when it sends it.
function winChance(view, expected) {
  if (view.win_chance) return view.win_chance;
  const [p, q] = parseFraction(expected);
  return addFractions("1/2", `${p}/${2n * q}`);
}

// The board of a hidden game: each component with what you know of it and its actions.
function drawHiddenBoard(view) {
  const board = $("hidden-actions");
  board.replaceChildren();
  const unit = hiddenUnit(view);
  if (view.over) {
    board.append(el("p", { class: "summary", text: "The true final position:" }),
      componentsBoard(unit, (view.final || []).map((x) => ({ states: [x], known: String(x) }))));
    $("hidden-knowledge").parentElement.hidden = true;
    return;
  }
  const components = view.components || [];
  const known = [];
  components.forEach((component, k) => {
    const name = component.name || `${unit} ${k + 1}`;
    const states = component.drawable || component.heights || component.possible || [];
    const row = el("div", { class: "hidden-row", "data-component": k },
      el("span", { class: "hidden-name", text: name }),
      drawComponent(component.unit || unit, states, component.known),
      el("span", { class: "hidden-known", text: knownWords(component.unit || unit, states, component.known) }));
    known.push(`${name}: ${knownWords(component.unit || unit, states, component.known)}`);
    const buttons = el("span", { class: "hidden-buttons" });
    for (const action of view.actions.filter((a) => a.component === k)) {
      const words = action.words || (action.kind === "look" ? `look at ${name}`
        : (action.kind === "request" ? "ask the umpire for " : "") + `${name}: ${action.says}`);
      // beside its component, the component's name is not repeated ("ask the umpire: remove 1")
      const short = words.replace(` for ${name}: `, ": ").replace(new RegExp(`^${name}: `), "");
      const button = el("button", { class: "move hidden-action", type: "button", "data-label": action.label,
        "data-index": action.index, "aria-label": words, text: short });
      button.addEventListener("click", () => { hiddenAct(action.index).catch(() => {}); });
      buttons.append(button);
    }
    row.append(buttons);
    board.append(row);
  });
  $("hidden-knowledge").textContent = known.join("; ") + ".";
  $("hidden-knowledge").parentElement.hidden = false;
}

// The replay after the game: one step at a time, the true position before the move beside
// what each player knew of it, what the mover did and what each side was told.
function renderReplay() {
  const view = hidden.view;
  const box = $("hidden-replay");
  box.replaceChildren();
  const steps = view.history || [];
  const unit = hiddenUnit(view);
  const n = steps.length;
  const i = Math.min(Math.max(hidden.step, 0), n);
  const nav = el("div", { class: "replay-nav" });
  const prev = el("button", { id: "replay-prev", type: "button", text: "◀ Prev" });
  const next = el("button", { id: "replay-next", type: "button", text: "Next ▶" });
  prev.disabled = i === 0;
  next.disabled = i >= n;
  prev.addEventListener("click", () => { hidden.step = i - 1; renderReplay(); });
  next.addEventListener("click", () => { hidden.step = i + 1; renderReplay(); });
  nav.append(prev, el("span", { id: "replay-step", class: "replay-step",
    text: i < n ? `Move ${i + 1} of ${n}` : `The end (after ${n} move${n === 1 ? "" : "s"})` }), next);
  box.append(nav);
  if (i >= n) {
    box.append(el("p", { class: "replay-move", text: `Final position; ${view.winner === "you" ? "you won" : "the computer won"}.` }),
      el("div", { class: "replay-panels" }, el("div", { class: "replay-panel" }, el("h4", { text: "True position" }),
        componentsBoard(unit, (view.final || []).map((x) => ({ states: [x], known: String(x) }))))));
    return;
  }
  const step = steps[i];
  const mover = step.mover_words || (step.player === "you" ? "you" : "the computer");
  const words = step.words || labelWords(step.action);
  const told = [];
  const subject = mover === "you" ? "you" : "it";
  if (step.saw === "done") told.push('the umpire said "done"');
  else if (step.saw === "refused") told.push('the umpire said "impossible"');
  else if (step.saw) told.push(`${subject} saw ${stateWords(unit, step.saw)}`);
  if (step.told_opponent) told.push(toldWords(mover, step.player === "you" ? "the computer was" : "you were", step.told_opponent));
  const move = el("p", { class: "replay-move" }, el("b", { text: mover.charAt(0).toUpperCase() + mover.slice(1) + ": " }),
    words + (told.length ? ` (${told.join("; ")})` : "") + ".");
  const panel = (title, entries, cls) => el("div", { class: "replay-panel " + cls }, el("h4", { text: title }), componentsBoard(unit, entries));
  box.append(move, el("div", { class: "replay-panels" },
    panel("True position", step.before.map((x) => ({ states: [x], known: String(x) })), "true"),
    panel("You knew", parseKnowledge(step.you_knew), "you"),
    panel("The computer knew", parseKnowledge(step.computer_knew), "computer")));
}

async function hiddenStart(event) {
  if (event) event.preventDefault();
  const game = $("hidden-game").value;
  const body = {
    variant: $("hidden-variant").value, position: $("hidden-position").value.trim(),
    misere: $("hidden-misere").checked, first: $("hidden-first").value,
  };
  if (game !== "nim") {
    body.game = game;
    body.options = {};
    for (const key of hiddenGameInfo().options.filter((k) => ["set", "max", "code"].includes(k))) {
      const value = $("hidden-opt-" + key).value.trim();
      if (value) body.options[key] = key === "max" ? Number(value) : value;
    }
  }
  const view = await api("hidden/new", body);
  hidden.id = view.id;
  hidden.view = view;
  hidden.words = new Map();
  hidden.unit = UNITS[game] || null;
  if (view.components && view.components[0]) hidden.unit = hiddenUnit(view);
  renderHidden();
}

async function hiddenAct(index) {
  if (!hidden.view || hidden.view.over) return;
  hidden.view = await api(`hidden/${hidden.id}/act`, { action: index });
  renderHidden();
}

async function hiddenHint() {
  const hint = await api(`hidden/${hidden.id}/hint`);
  rememberWords(hint.actions);
  const out = $("hidden-hint-out");
  const value = hint.game_value_for_you;
  out.replaceChildren(el("p", { class: "summary", text: "The equilibrium plays each action with the probability " +
    `shown (your expected result ${signed(value)} if you do). Probability 0: never.` }));
  const list = el("ul", { class: "hint-list" });
  for (const action of hint.actions) {
    const played = action.probability !== "0";
    list.append(el("li", { class: "option " + (played ? "optimal" : "suboptimal"),
      text: `${action.words || labelWords(action.label)}: probability ${action.probability}` }));
  }
  out.append(list);
}

$("hidden-game").addEventListener("change", showHiddenGame);
$("hidden-variant").addEventListener("change", showHiddenRules);
$("hidden-form").addEventListener("submit", (event) => { hiddenStart(event).catch(() => {}); });
$("hidden-hint").addEventListener("click", () => { hiddenHint().catch(() => {}); });

// The solver's histories and actions in words (heaps numbered from 1; L moves first).
function solveWords(text) {
  return String(text)
    .replace(/^opponent: (heap \d+) emptied$/, "the opponent moved in $1 and emptied it")
    .replace(/^opponent: (heap \d+)$/, "the opponent moved in $1")
    .replace(/^opponent(: moved| moved)$/, "the opponent moved")
    .replace(/^try /, "ask the umpire for ")
    .replace(/^look (\d+)/, "look at heap $1")
    .replace(/ -> refused$/, ' (the umpire: "impossible")')
    .replace(/ -> done$/, ' (the umpire: "done")')
    .replace(/ -> (\d+)$/, " (it holds $1)")
    .replace(/\b(\d+)_(\d+)\b/g, "heap $1: remove $2");
}

async function solveSmall(event) {
  event.preventDefault();
  const out = $("solve-out");
  out.replaceChildren();
  const data = await api("solve", { variant: $("solve-variant").value, position: $("solve-position").value.trim(),
    misere: $("solve-misere").checked, strategy: true });
  const value = String(data.value);
  const chance = addFractions("1/2", `${parseFraction(value)[0]}/${2n * parseFraction(value)[1]}`);
  out.replaceChildren(el("p", { text: `${data.variant}(${data.position.join(",")})${data.misere ? " misère" : ""}: ` +
    `value ${value} for the player who moves first (${data.exact ? "certified exact" : "not certified"}): ` +
    `with best play on both sides they win with probability ${chance}; ${data.nodes} nodes, ` +
    `${data.infosets} information sets` }));
  const table = el("table", { class: "strategy" }, el("tr", {}, el("th", { text: "player" }),
    el("th", { text: "knows" }), el("th", { text: "reached" }), el("th", { text: "after" }), el("th", { text: "plays" })));
  for (const entry of data.strategies || []) {
    const plays = Object.entries(entry.actions).map(([name, p]) => `${solveWords(name)}: ${p}`).join("; ");
    const player = entry.player === "L" ? "first" : entry.player === "R" ? "second" : entry.player;
    table.append(el("tr", {}, el("td", { "data-label": "player", text: player }),
      el("td", { class: "belief", "data-label": "knows", text: entry.knows }),
      el("td", { "data-label": "reached", text: entry.reach }),
      el("td", { "data-label": "after", text: entry.history.map(solveWords).join("; ") || "start" }),
      el("td", { "data-label": "plays", text: plays })));
  }
  out.append(table);
}
$("solve-form").addEventListener("submit", (event) => { solveSmall(event).catch(() => {}); });

openTabFromAddress();
const gamesLoaded = loadGames().catch(() => {});
