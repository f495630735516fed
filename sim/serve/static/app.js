// stichsim serve: the page of one table. Everything shown comes from the server's JSON of
// what the person's seat sees (sim/serve/view.py): the screen's lines, whose card names are
// drawn here as SVG cards, and the legal choices, the only things that can be clicked.
"use strict";

const CARD = /\b([CSHD][AKQJT987])\b/;
const SUIT = { C: "\u2663", S: "\u2660", H: "\u2665", D: "\u2666" };
const SUIT_NAME = { C: "clubs", S: "spades", H: "hearts", D: "diamonds" };
const RANK = { A: "A", K: "K", Q: "Q", J: "J", T: "10", 9: "9", 8: "8", 7: "7" };
const HAND = /^(Your hand|Your cards|Your first-round cards|You play the blind now\. Blind):/;
const PACE = new URLSearchParams(location.search).has("pace")
  ? Number(new URLSearchParams(location.search).get("pace")) : 350;
const SVG = "http://www.w3.org/2000/svg";

let state = null;       // the table's JSON as the server last sent it
let told = 0;           // moves of the deal already shown in the log
let dealKey = "";       // table id and deal number whose moves the log shows
let picks = [];         // choices picked so far when a question picks several cards

const $ = (id) => document.getElementById(id);

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  for (const c of children) node.append(c);
  return node;
}

function svg(tag, attrs = {}, text = null) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== null) node.textContent = text;
  return node;
}

// A card as SVG: a face (``HT``), a face-down card (``??``) or an empty place (``--``).
function drawCard(name) {
  const s = svg("svg", { viewBox: "0 0 60 88", class: "card", role: "img" });
  if (name === "??") {
    s.setAttribute("aria-label", "face down");
    s.append(svg("rect", { x: 1, y: 1, width: 58, height: 86, rx: 6, fill: "#24457a", stroke: "#ddd" }));
    s.append(svg("rect", { x: 6, y: 6, width: 48, height: 76, rx: 4, fill: "none", stroke: "#9bb3dd", "stroke-dasharray": "3 3" }));
    return s;
  }
  if (name === "--") {
    s.setAttribute("aria-label", "played");
    s.append(svg("rect", { x: 1, y: 1, width: 58, height: 86, rx: 6, fill: "none", stroke: "#9fbf9f", "stroke-dasharray": "4 4" }));
    return s;
  }
  const suit = name[0], rank = RANK[name[1]];
  const colour = suit === "H" || suit === "D" ? "#b3141b" : "#111";
  s.setAttribute("aria-label", `${rank} of ${SUIT_NAME[suit]}`);
  s.dataset.card = name;
  s.append(svg("rect", { x: 1, y: 1, width: 58, height: 86, rx: 6, fill: "#fdfdf8", stroke: "#333" }));
  s.append(svg("text", { x: 5, y: 20, "font-size": 17, "font-weight": 700, fill: colour }, rank));
  s.append(svg("text", { x: 5, y: 37, "font-size": 16, fill: colour }, SUIT[suit]));
  s.append(svg("text", { x: 34, y: 70, "font-size": 30, fill: colour, "text-anchor": "middle" }, SUIT[suit]));
  return s;
}

// Which choice each clickable card stands for: label -> indices not yet given to a card.
function choiceIndex() {
  const free = new Map();
  (state.question ? state.question.choices : []).forEach((label, k) => {
    if (!free.has(label)) free.set(label, []);
    free.get(label).push(k);
  });
  return { free, placed: new Set() };
}

// The card ``name`` drawn, clickable when ``label`` names a legal choice (identical copies
// of one choice each click it; a discard's copies are choices of their own).
function cardFor(name, label, index) {
  const drawn = drawCard(name);
  const ks = index && index.free.get(label);
  if (!ks || !ks.length) return drawn;
  const k = ks.length > 1 ? ks.shift() : ks[0];
  index.placed.add(k);
  const button = el("button", { class: "cardbtn", type: "button", "data-choice": k, title: label });
  if (picks.includes(k)) button.classList.add("picked");
  button.append(drawn);
  button.addEventListener("click", () => choose(k));
  return button;
}

// One line of the screen: its label, then text with the card names drawn as cards.
function drawLine(text, index) {
  const hand = HAND.test(text);
  const line = el("div", { class: hand ? "line hand" : "line" });
  const cut = text.indexOf(": ");
  if (cut > 0 && cut < 40) {
    line.append(el("span", { class: "label" }, text.slice(0, cut + 1)));
    text = text.slice(cut + 2);
  }
  text.split(CARD).forEach((part, k) => {
    if (k % 2) line.append(hand ? cardFor(part, part, index) : drawCard(part));
    else if (part.trim()) line.append(el("span", {}, part.trim()));
  });
  return line;
}

// A pyramid row as the screen writes it (``p0 HT*  p1 ??``; ``p7 .. on p8 ..`` a stack).
function drawPyramidRow(text, own, index) {
  const row = el("div", { class: "pyrow" });
  for (const segment of text.trim().split(/\s{2,}/)) {
    const stack = el("div", { class: "stack" });
    for (const m of segment.matchAll(/p(\d+) (\?\?|--|[CSHD][AKQJT9])(\*?)/g)) {
      const slot = el("div", { class: m[2] === "--" ? "slot gone" : "slot" });
      const card = own ? cardFor(m[2], `${m[2]} (p${m[1]})`, index) : drawCard(m[2]);
      if (m[3]) (card.querySelector ? card.querySelector("svg") || card : card).classList.add("free");
      slot.append(card, el("span", {}, `p${m[1]}`));
      stack.append(slot);
    }
    row.append(stack);
  }
  return row;
}

function drawView() {
  const view = $("view");
  view.replaceChildren();
  const index = choiceIndex();
  let pyramid = null, own = false;
  for (const text of state.view || []) {
    if (/pyramid:$/.test(text)) {
      own = text.startsWith("Your");
      pyramid = el("div", { class: "pyramid" }, el("div", { class: "title" }, text));
      view.append(pyramid);
    } else if (pyramid && /^\s*p\d+ /.test(text)) {
      pyramid.append(drawPyramidRow(text, own, index));
    } else {
      pyramid = null;
      view.append(drawLine(text, index));
    }
  }
  drawQuestion(index);
}

// The question: its prompt, and a button for every legal choice no card above stands for.
function drawQuestion(index) {
  const box = $("question");
  box.replaceChildren();
  const q = state.question;
  if (!q) return;
  const prompt = q.pick > 1 ? `${q.prompt}: click ${q.pick - picks.length} more` : q.prompt;
  box.append(el("div", { class: "prompt" }, prompt));
  const buttons = el("div", { class: "choices" });
  q.choices.forEach((label, k) => {
    if (index.placed.has(k)) return;
    const card = label.match(/^([CSHD][AKQJT987])( \(p\d+\))?$/);
    if (card) {
      buttons.append(cardFor(card[1], label, { free: new Map([[label, [k]]]), placed: index.placed }));
    } else {
      const b = el("button", { type: "button", "data-choice": k }, label);
      b.addEventListener("click", () => choose(k));
      buttons.append(b);
    }
  });
  box.append(buttons);
}

function drawSeries() {
  const s = state.series, t = $("series");
  t.replaceChildren(el("tr", {}, el("th", {}, "deal"), el("th", {}, "dealer"),
    ...s.seats.map((name) => el("th", {}, name))));
  for (const d of s.deals) {
    t.append(el("tr", {}, el("td", {}, String(d.number)), el("td", {}, String(d.dealer)),
      ...d.scores.map((v) => el("td", {}, String(v)))));
  }
  t.append(el("tr", { class: "total" }, el("th", {}, "total"), el("th", {}, ""),
    ...s.totals.map((v) => el("th", {}, String(v)))));
  $("download").href = `/api/tables/${state.id}/traces`;
  $("download").hidden = !s.deals.length;
}

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

// The other seats' moves one after another, then the screen at the person's decision.
async function show(next, animate = true) {
  state = next;
  picks = [];
  $("error").hidden = true;
  const key = `${state.id}:${state.number}`;
  if (key !== dealKey) {
    $("log").replaceChildren();
    told = animate ? 0 : state.told.length;
    if (!animate) for (const line of state.told) logLine(line);
    dealKey = key;
  }
  $("where").textContent = `${state.game}, deal ${state.number} of seed ${state.seed}; ` +
    `you are seat ${state.seat}, the others play ${state.policy_label}`;
  $("question").replaceChildren();
  $("result").hidden = true;
  $("next").hidden = true;
  drawSeries();
  while (told < state.told.length) {
    logLine(state.told[told++]);
    if (PACE > 0) await sleep(PACE);
  }
  drawView();
  if (state.result) {
    $("view").replaceChildren();
    $("result").replaceChildren(el("h3", {}, "Deal over"), ...state.result.map((l) => el("p", {}, l)),
      el("button", { id: "hindsight-button", type: "button" }, "Hindsight"));
    $("hindsight-button").addEventListener("click", hindsight);
    $("result").hidden = false;
    $("next").hidden = false;
  }
  $("table").dataset.step = state.result ? "over" : String(state.step);
}

function logLine(text) {
  const item = el("li", { class: text.startsWith("  ") ? "trick" : "" });
  item.append(drawLine(text.trim(), null));
  $("log").append(item);
  $("log").scrollTop = $("log").scrollHeight;
}

async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const res = await fetch(path, init);
  if (!res.ok) {
    const err = new Error(await res.text());
    err.status = res.status;
    throw err;
  }
  return res.json();
}

function fail(err) {
  $("error").textContent = err.message;
  $("error").hidden = false;
}

async function choose(k) {
  const q = state.question;
  if (q.pick > 1) {
    picks = picks.includes(k) ? picks.filter((p) => p !== k) : [...picks, k];
    if (picks.length < q.pick) return drawView();
  }
  const chosen = q.pick > 1 ? picks : [k];
  $("question").replaceChildren(el("div", { class: "prompt" }, "\u2026"));
  try {
    await show(await api(`/api/tables/${state.id}/answer`, { step: state.step, choices: chosen }));
  } catch (err) {
    fail(err);
    if (err.status === 409) await resume(state.id);
    else drawView();
  }
}

async function hindsight() {
  const box = $("hindsight");
  box.replaceChildren(el("p", {}, "hindsight: solving\u2026"));
  try {
    const h = await api(`/api/tables/${state.id}/hindsight`);
    box.replaceChildren(el("h3", {}, `Hindsight, deal ${h.deal}`), el("pre", {}, h.lines.join("\n")));
  } catch (err) {
    box.replaceChildren(el("p", {}, `hindsight: ${err.message}`));
  }
}

async function resume(id) {
  try {
    const next = await api(`/api/tables/${id}`);
    $("setup").hidden = true;
    $("table").hidden = false;
    await show(next, false);
  } catch (err) {
    fail(err);
    history.replaceState(null, "", location.pathname + keepPace());
    $("setup").hidden = false;
  }
}

function keepPace() {
  return new URLSearchParams(location.search).has("pace") ? `?pace=${PACE}` : "";
}

// --- the setup form: games, seats, policies and the rule options from /api/games ----------

let games = null;

function fillSeats() {
  const game = games.games[$("game").value];
  $("seat").replaceChildren(...[...Array(game.players).keys()].map((s) => el("option", { value: s }, String(s))));
  const box = $("options");
  box.replaceChildren();
  for (const o of game.options) {
    let input;
    if (o.low !== null) {
      input = el("input", { type: "number", min: o.low, max: o.high, value: o.default });
    } else {
      input = el("select", {}, ...o.allowed.map((v, k) => el("option", { value: k }, String(v))));
    }
    input.dataset.option = o.name;
    box.append(el("label", { title: o.doc }, `${o.name} `, input));
  }
}

function chosenRules() {
  const game = games.games[$("game").value];
  const rules = {};
  for (const o of game.options) {
    const input = document.querySelector(`[data-option="${o.name}"]`);
    const value = o.low !== null ? Number(input.value) : o.allowed[Number(input.value)];
    if (value !== o.default) rules[o.name] = value;
  }
  return rules;
}

async function startTable(event) {
  event.preventDefault();
  const seed = $("seed").value === "" ? null : Number($("seed").value);
  try {
    const next = await api("/api/tables", { game: $("game").value, seat: Number($("seat").value),
      policy: $("policy").value, rules: chosenRules(), seed });
    const query = new URLSearchParams(location.search);
    query.set("table", next.id);
    history.replaceState(null, "", `${location.pathname}?${query}`);
    $("setup").hidden = true;
    $("table").hidden = false;
    $("hindsight").replaceChildren();
    await show(next);
  } catch (err) {
    fail(err);
  }
}

async function main() {
  games = await api("/api/games");
  $("game").replaceChildren(...Object.keys(games.games).map((g) => el("option", { value: g }, g)));
  $("policy").replaceChildren(...games.policies.map((p) => el("option", { value: p }, games.policy_labels[p])));
  $("policy").value = games.default_policy;
  $("game").addEventListener("change", fillSeats);
  fillSeats();
  $("setup-form").addEventListener("submit", startTable);
  $("next").addEventListener("click", async () => {
    $("hindsight").replaceChildren();
    try { await show(await api(`/api/tables/${state.id}/next`, {})); } catch (err) { fail(err); }
  });
  $("new").addEventListener("click", () => {
    history.replaceState(null, "", location.pathname + keepPace());
    $("table").hidden = true;
    $("setup").hidden = false;
  });
  const id = new URLSearchParams(location.search).get("table");
  if (id) await resume(id);
  else $("setup").hidden = false;
}

main().catch(fail);
