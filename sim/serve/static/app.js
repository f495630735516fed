// stichsim serve: the card table of one seat. Everything drawn comes from the server's JSON
// of what the person's seat sees (sim/serve/view.py): the board (places, tricks, the hand,
// the pyramids), the legal choices of the question due (the only things that can be
// clicked), and at the end every dealt card and the score sheet's row.
//
// A choice is tied to the question it was drawn for: every choice button carries that
// question's step, and once one is sent all of them are disabled until the next question
// is drawn, so a second click during the other seats' moves answers nothing.
"use strict";

const CARD = /\b([CSHD][AKQJT987])\b/;
const PLAYED = /: plays? ([CSHD][AKQJT987])\b/;
const SUITS = "CSHD";
const PACE = new URLSearchParams(location.search).has("pace")
  ? Number(new URLSearchParams(location.search).get("pace")) : 350;
const SVG = "http://www.w3.org/2000/svg";

// The decks a person may choose: each suit's symbol, colour and name, and the ranks' letters.
const DECKS = {
  french: {
    suits: { C: ["\u2663", "#111", "clubs"], S: ["\u2660", "#111", "spades"],
      H: ["\u2665", "#c0141b", "hearts"], D: ["\u2666", "#c0141b", "diamonds"] },
    ranks: { A: "A", K: "K", Q: "Q", J: "J", T: "10", 9: "9", 8: "8", 7: "7" },
  },
  four: {
    suits: { C: ["\u2663", "#111", "clubs"], S: ["\u2660", "#17803a", "spades"],
      H: ["\u2665", "#c0141b", "hearts"], D: ["\u2666", "#d98a00", "diamonds"] },
    ranks: { A: "A", K: "K", Q: "Q", J: "J", T: "10", 9: "9", 8: "8", 7: "7" },
  },
  german: {
    suits: { C: ["acorn", "#7a4a12", "Eichel"], S: ["leaf", "#17803a", "Grün"],
      H: ["heart", "#c0141b", "Herz"], D: ["bell", "#d98a00", "Schellen"] },
    ranks: { A: "A", K: "K", Q: "O", J: "U", T: "10", 9: "9", 8: "8", 7: "7" },
  },
};
const RANK_WORD = { german: { A: "Daus", K: "König", Q: "Ober", J: "Unter", T: "Zehn" } };

let state = null;       // the table's JSON as the server last sent it
let told = 0;           // moves of the deal already shown in the log
let dealKey = "";       // table id and deal number whose moves the log shows
let picks = [];         // choices picked so far when a question picks several cards
let busy = true;        // a choice was sent, or the moves are still being shown
let deck = localStorage.getItem("stichsim-deck") || "french";
let games = null;

const $ = (id) => document.getElementById(id);

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  for (const c of children) if (c !== null && c !== undefined) node.append(c);
  return node;
}

function svg(tag, attrs = {}, text = null) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== null) node.textContent = text;
  return node;
}

// --- cards ------------------------------------------------------------------------------

// A German suit's sign drawn at (x, y) with size r.
function germanSign(kind, x, y, r, colour) {
  const g = svg("g", { fill: colour });
  if (kind === "heart") {
    g.append(svg("path", { d: `M${x} ${y + r} C${x - 1.6 * r} ${y - 0.2 * r} ${x - 0.6 * r} ${y - 1.2 * r} ${x} ${y - 0.4 * r} C${x + 0.6 * r} ${y - 1.2 * r} ${x + 1.6 * r} ${y - 0.2 * r} ${x} ${y + r}Z` }));
  } else if (kind === "bell") {
    g.append(svg("circle", { cx: x, cy: y, r: r * 0.9 }));
    g.append(svg("rect", { x: x - r * 0.9, y: y - r * 0.15, width: r * 1.8, height: r * 0.3, fill: "#fdfdf8" }));
    g.append(svg("circle", { cx: x, cy: y + r * 0.45, r: r * 0.18, fill: "#fdfdf8" }));
  } else if (kind === "leaf") {
    g.append(svg("path", { d: `M${x} ${y - r} C${x + r} ${y - 0.3 * r} ${x + 0.6 * r} ${y + 0.6 * r} ${x} ${y + r} C${x - 0.6 * r} ${y + 0.6 * r} ${x - r} ${y - 0.3 * r} ${x} ${y - r}Z` }));
    g.append(svg("line", { x1: x, y1: y - 0.7 * r, x2: x, y2: y + 1.3 * r, stroke: colour, "stroke-width": r * 0.15 }));
  } else {  // acorn
    g.append(svg("ellipse", { cx: x, cy: y + 0.25 * r, rx: 0.6 * r, ry: 0.75 * r }));
    g.append(svg("path", { d: `M${x - 0.8 * r} ${y - 0.1 * r} Q${x} ${y - 1.1 * r} ${x + 0.8 * r} ${y - 0.1 * r}Z`, fill: "#4a2c08" }));
  }
  return g;
}

function suitSign(suit, x, y, size) {
  const [sign, colour] = DECKS[deck].suits[suit];
  if (deck === "german") return germanSign(sign, x, y - size * 0.3, size * 0.45, colour);
  return svg("text", { x, y, "font-size": size, fill: colour, "text-anchor": "middle" }, sign);
}

function cardWords(name) {
  const d = DECKS[deck];
  const rank = (RANK_WORD[deck] || {})[name[1]] || d.ranks[name[1]];
  return `${rank} of ${d.suits[name[0]][2]}`;
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
  const suit = name[0];
  const colour = DECKS[deck].suits[suit][1];
  s.setAttribute("aria-label", cardWords(name));
  s.dataset.card = name;
  s.append(svg("title", {}, cardWords(name)));
  s.append(svg("rect", { x: 1, y: 1, width: 58, height: 86, rx: 6, fill: "#fdfdf8", stroke: "#333" }));
  s.append(svg("text", { x: 5, y: 20, "font-size": 17, "font-weight": 700, fill: colour }, DECKS[deck].ranks[name[1]]));
  s.append(suitSign(suit, 12, 38, 16));
  s.append(suitSign(suit, 36, 72, 30));
  return s;
}

// --- choices ----------------------------------------------------------------------------

// Which choice each clickable card stands for: label -> indices not yet given to a card.
function choiceIndex() {
  const free = new Map();
  const q = busy ? null : state.question;
  (q ? q.choices : []).forEach((label, k) => {
    if (!free.has(label)) free.set(label, []);
    free.get(label).push(k);
  });
  return { free, placed: new Set(), cards: q ? q.choices.some((l) => /^[CSHD][AKQJT987]( \(p\d+\))?$/.test(l)) : false };
}

// A button answering choice ``k`` of the question drawn now (its step kept with it).
function choiceButton(k, content, cls = "") {
  const b = el("button", { type: "button", "data-choice": k, "data-step": state.step, class: cls });
  b.append(content);
  b.addEventListener("click", () => choose(Number(b.dataset.choice), Number(b.dataset.step)));
  return b;
}

// The card ``name``, clickable when ``label`` names a legal choice; greyed where the
// question asks for a card and this one is not among the choices (``inert``).
function cardFor(name, label, index) {
  const drawn = drawCard(name);
  const ks = index && index.free.get(label);
  if (!ks || !ks.length) {
    const wrap = el("span", { class: index && index.cards && name.length === 2 && !busy ? "cardwrap inert" : "cardwrap" });
    wrap.append(drawn);
    return wrap;
  }
  const k = ks.length > 1 ? ks.shift() : ks[0];
  index.placed.add(k);
  const button = choiceButton(k, drawn, picks.includes(k) ? "cardbtn picked" : "cardbtn");
  button.title = label;
  return button;
}

function disableChoices() {
  for (const b of document.querySelectorAll("[data-choice]")) b.disabled = true;
}

// --- the places around the table --------------------------------------------------------

// Where each place sits: the person at the bottom, the others left, top, right in play
// order (a two-player game's other player at the top; Skat-en-deux's blind at the left).
function directions(places) {
  const me = places.findIndex((p) => p.you);
  const n = places.length;
  const out = new Array(n);
  out[me] = "bottom";
  if (n === 2) out[1 - me] = "top";
  else {
    const blind = places.findIndex((p) => p.name === "The blind");
    if (blind >= 0) {
      out[blind] = "left";
      out[places.findIndex((p, k) => k !== me && k !== blind)] = "top";
    } else {
      out[(me + 1) % 3] = "left";
      out[(me + 2) % 3] = "right";
    }
  }
  return out;
}

function placePanel(place, k, turn) {
  const box = el("div", { class: "place" + (k === turn ? " turn" : "") + (place.you ? " you" : ""), "data-place": k });
  const head = el("div", { class: "who" }, el("strong", {}, place.name));
  if (place.position) head.append(el("span", { class: "pos" }, place.you ? `you are ${place.position}` : place.position));
  if (place.dealer) head.append(el("span", { class: "badge" }, "deals"));
  if (place.role) head.append(el("span", { class: "badge role" }, place.role));
  box.append(head);
  const facts = [];
  if (place.cards !== null) facts.push(`${place.cards} card${place.cards === 1 ? "" : "s"}`);
  if (place.tricks !== null) facts.push(`${place.tricks} trick${place.tricks === 1 ? "" : "s"}`);
  if (place.points !== null) facts.push(`${place.points} points`);
  if (place.markers) facts.push(`markers ${place.markers}`);
  box.append(el("div", { class: "facts" }, facts.join(" · ")));
  if (place.said) box.append(el("div", { class: "said" }, place.said));
  if (k === turn) box.append(el("div", { class: "turnmark" }, place.you ? "your turn" : "to play"));
  return box;
}

// The trick as it stood after ``plays`` cards of the deal: its cards by place, the taker
// marked once it is complete.
function trickAt(tricks, plays) {
  let seen = 0;
  for (const t of tricks) {
    if (plays <= seen + t.cards.length) {
      const cards = t.cards.slice(0, plays - seen);
      const complete = t.complete && cards.length === t.cards.length;
      return { ...t, cards, complete, winner: complete ? t.winner : null };
    }
    seen += t.cards.length;
  }
  return null;
}

function playsIn(tricks) {
  return tricks.reduce((n, t) => n + t.cards.length, 0);
}

function lastComplete(tricks, plays) {
  let seen = 0, last = null;
  for (const t of tricks) {
    seen += t.cards.length;
    if (seen <= plays && t.complete) last = t;
  }
  return last;
}

function drawTrick(trick, places) {
  const box = $("trick");
  box.replaceChildren();
  if (!trick) return;
  const dirs = directions(places);
  const taken = trick.winner === null ? `${trick.points} points` : `\u2192 ${places[trick.winner].name} (${trick.points})`;
  box.append(el("div", { class: "label" }, trick.complete ? `${trick.label} ${taken}` : trick.label));
  trick.cards.forEach((c, k) => {
    const cell = el("div", { class: `in ${dirs[c.place]}` + (trick.complete && c.place === trick.winner ? " winner" : "") });
    cell.style.zIndex = String(k + 1);
    cell.append(drawCard(c.card));
    if (c.where) cell.append(el("span", { class: "where" }, c.where));
    box.append(cell);
  });
}

function drawLastTrick(trick, places) {
  const box = $("last-trick");
  box.replaceChildren();
  if (!trick) return;
  box.append(el("h3", {}, `Last trick (${trick.label.toLowerCase()})`));
  const row = el("div", { class: "mini" });
  for (const c of trick.cards) {
    row.append(el("span", { class: "mini-card" + (c.place === trick.winner ? " winner" : "") },
      drawCard(c.card), el("small", {}, places[c.place].name)));
  }
  box.append(row, el("div", { class: "small" }, trick.winner === null ? `${trick.points} points`
    : `${places[trick.winner].name} took ${trick.points} points`));
}

// A titled set of cards (``Cards``: the hand, the skat, a dealt hand), in its groups;
// with ``index`` its cards are clickable where they are choices.
function titledCards(cards, index = null) {
  const row = el("div", { class: "cards" });
  for (const g of cards.groups) {
    const group = el("div", { class: "group" });
    for (const name of g) group.append(index ? cardFor(name, name, index) : drawCard(name));
    row.append(group);
  }
  return el("div", { class: "shown" }, el("div", { class: "title" }, cards.title), row);
}

// A duel pyramid: its own free cards are choices (``HT (p3)``); the other's never are.
function drawPyramid(p, index) {
  const own = p.owner === state.seat;
  const box = el("div", { class: "pyramid" + (own ? " own" : " theirs") },
    el("div", { class: "title" }, p.title));
  for (const row of p.rows) {
    const line = el("div", { class: "pyrow" });
    for (const stack of row) {
      const st = el("div", { class: "stack" });
      for (const s of stack) {
        const slot = el("div", { class: "slot" + (s.card === "--" ? " gone" : "") + (s.free ? " free" : "") });
        const card = own && s.free && s.card.length === 2 ? cardFor(s.card, `${s.card} (p${s.position})`, index) : drawCard(s.card);
        slot.append(card, el("span", {}, `p${s.position}`));
        st.append(slot);
      }
      line.append(st);
    }
    box.append(line);
  }
  return box;
}

// The whole table from the board (``plays``: how many cards of the deal to show played).
function drawBoard(plays) {
  const b = state.board || state.final;
  const places = b.places;
  const dirs = directions(places);
  const turn = state.board && !busy ? state.board.turn : null;
  for (const side of ["top", "left", "right"]) $(side).replaceChildren();
  $("me").replaceChildren();
  places.forEach((p, k) => {
    const panel = placePanel(p, k, turn);
    (dirs[k] === "bottom" ? $("me") : $(dirs[k])).append(panel);
  });
  const index = state.board ? choiceIndex() : null;
  $("felt").classList.toggle("duel", Boolean(state.board && state.board.pyramids.length));
  if (state.board && state.board.pyramids.length) {
    const pyramids = el("div", { class: "pyramids" });
    for (const p of state.board.pyramids) pyramids.append(drawPyramid(p, index));
    $("top").append(pyramids);
  }
  $("facts").replaceChildren(...(state.board ? state.board.facts : []).map(([k, v]) =>
    el("span", { class: "fact" }, el("b", {}, `${k}: `), v)));
  const tricks = b.tricks;
  drawTrick(trickAt(tricks, plays), places);
  drawLastTrick(lastComplete(tricks, plays), places);
  $("shown").replaceChildren();
  for (const c of (state.board ? state.board.shown : [])) {
    $("shown").append(titledCards(c));
  }
  $("hand").replaceChildren();
  if (state.board && state.board.hand) {
    const h = state.board.hand;
    $("hand").append(titledCards(h, index));
  }
  drawQuestion(index);
}

// --- the question -----------------------------------------------------------------------

// The question's prompt and a button for each legal choice no card stands for; bids as
// pass / the next bid / a jump to any higher one.
function drawQuestion(index) {
  const box = $("question");
  box.replaceChildren();
  const q = state.question;
  if (!q || busy) return;
  const prompt = q.pick > 1 ? `${q.prompt}: click ${q.pick - picks.length} more` : q.prompt;
  box.append(el("div", { class: "prompt" }, prompt));
  const buttons = el("div", { class: "choices" });
  const values = [];
  q.choices.forEach((label, k) => {
    if (index.placed.has(k)) return;
    if (q.bids && /^\d+$/.test(label)) { values.push([k, label]); return; }
    buttons.append(choiceButton(k, label));
  });
  if (values.length) {
    const [first, rest] = [values[0], values.slice(1)];
    buttons.prepend(choiceButton(first[0], `bid ${first[1]}`, "next-bid"));
    if (rest.length) {
      const jump = el("select", { id: "jump", "aria-label": "a higher bid" },
        ...rest.map(([k, v]) => el("option", { value: k }, v)));
      const go = choiceButton(rest[0][0], "jump to this bid", "jump");
      jump.addEventListener("change", () => { go.dataset.choice = jump.value; });
      buttons.append(el("span", { class: "jumpbox" }, jump, go));
    }
  }
  box.append(buttons);
}

// --- the series and the end of a deal ---------------------------------------------------

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

function drawResult() {
  const f = state.final;
  const box = $("result");
  const sheet = el("table", { class: "sheet" }, el("tr", {}, ...f.sheet.map(([k]) => el("th", {}, k))),
    el("tr", {}, ...f.sheet.map(([, v]) => el("td", {}, v))));
  const dealt = el("div", { class: "dealt" });
  for (const c of f.dealt) dealt.append(titledCards(c));
  const lines = el("details", { open: "" }, el("summary", {}, "How it was scored"), ...state.result.map((l) => el("p", {}, l)));
  box.replaceChildren(el("h3", {}, "Deal over"), sheet, dealt, lines,
    el("button", { id: "hindsight-button", type: "button" }, "Hindsight: replay your cards"));
  $("hindsight-button").addEventListener("click", hindsight);
  box.hidden = false;
  $("next").hidden = false;
}

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

// The other seats' moves one after another (each move in the log, each card on the
// table), then the table at the person's decision with its choices enabled.
async function show(next, animate = true) {
  busy = true;
  disableChoices();
  state = next;
  picks = [];
  $("error").hidden = true;
  const key = `${state.id}:${state.number}`;
  if (key !== dealKey) {
    $("log").replaceChildren();
    $("hindsight").hidden = true;
    told = animate ? 0 : state.told.length;
    if (!animate) for (const line of state.told) logLine(line);
    dealKey = key;
  }
  $("where").textContent = `${state.game.replaceAll("_", " ")}, deal ${state.number} of seed ${state.seed}; ` +
    `you are seat ${state.seat}, the others play ${state.policy_label}`;
  $("rules-line").textContent = Object.keys(state.rules).length
    ? "Rules: " + Object.entries(state.rules).map(([k, v]) => `${k.replaceAll("_", " ")} ${v}`).join(", ") : "Rules: the defaults";
  $("result").hidden = true;
  $("next").hidden = true;
  $("question").replaceChildren();
  drawSeries();
  const total = playsIn((state.board || state.final).tricks);
  let plays = state.told.slice(0, told).filter((l) => PLAYED.test(l)).length;
  drawBoard(plays);
  while (told < state.told.length) {
    const line = state.told[told++];
    logLine(line);
    if (PLAYED.test(line)) drawBoard(++plays);
    if (PACE > 0) await sleep(PACE);
  }
  busy = false;
  drawBoard(total);
  if (state.final) drawResult();
  $("table").dataset.step = state.final ? "over" : String(state.step);
}

function logLine(text) {
  const item = el("li", { class: text.startsWith("  ") ? "trick" : "" });
  const line = el("span", { class: "line" });
  text.trim().split(CARD).forEach((part, k) => {
    if (k % 2) line.append(drawCard(part));
    else if (part) line.append(part);
  });
  item.append(line);
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

// Choice ``k`` of the question drawn at ``step``: ignored unless that question is the one
// due and nothing has been sent for it yet.
async function choose(k, step) {
  if (busy || !state || step !== state.step || !state.question) return;
  const q = state.question;
  if (q.pick > 1) {
    picks = picks.includes(k) ? picks.filter((p) => p !== k) : [...picks, k];
    if (picks.length < q.pick) return drawBoard(playsIn(state.board.tricks));
  }
  const chosen = q.pick > 1 ? picks : [k];
  busy = true;
  disableChoices();
  $("question").replaceChildren(el("div", { class: "prompt" }, "\u2026"));
  try {
    await show(await api(`/api/tables/${state.id}/answer`, { step, choices: chosen }));
  } catch (err) {
    fail(err);
    if (err.status === 409) await resume(state.id);
    else { busy = false; picks = []; drawBoard(playsIn(state.board.tricks)); }
  }
}

// --- hindsight: the deal again, trick by trick, the person's cards against the best -----

async function hindsight() {
  const box = $("hindsight");
  box.hidden = false;
  box.replaceChildren(el("p", {}, "Hindsight: solving every position of your cards\u2026"));
  try {
    const h = await api(`/api/tables/${state.id}/hindsight`);
    stepHindsight(h, 0);
  } catch (err) {
    box.replaceChildren(el("p", {}, `hindsight: ${err.message}`));
  }
}

function stepHindsight(h, at) {
  const f = state.final;
  const tricks = f.tricks;
  const me = f.places.findIndex((p) => p.you);
  const box = $("hindsight");
  const t = tricks[at];
  const solved = h.decisions.filter((d) => d.solved);
  const mine = t.first_round ? null : solved.find((d) => d.trick === t.number);
  const missed = solved.filter((d) => d.loss > 0).length;
  const head = el("div", { class: "hs-head" },
    el("h3", {}, `Hindsight, deal ${h.deal}: ${t.label.toLowerCase()}`),
    el("button", { type: "button", id: "hs-prev" }, "\u25c0 previous"),
    el("span", { class: "small" }, ` ${at + 1} of ${tricks.length} `),
    el("button", { type: "button", id: "hs-next" }, "next \u25b6"),
    el("button", { type: "button", id: "hs-close" }, "close"));
  const row = el("div", { class: "hs-trick" });
  for (const c of t.cards) {
    const bad = mine && c.place === me && mine.loss > 0;
    row.append(el("span", { class: "mini-card" + (c.place === t.winner ? " winner" : "") + (bad ? " lost" : "") },
      drawCard(c.card), el("small", {}, f.places[c.place].name)));
  }
  let verdict = "You played no card of this trick that the solver looks at.";
  if (mine) {
    const unit = mine.measure === "declarer takes a trick" ? "" : ` ${mine.measure}`;
    const worth = (r) => r[0] === r[1] ? String(r[0]) : `${r[0]}-${r[1]}`;
    verdict = mine.loss > 0
      ? `${mine.played} cost ${mine.capped ? "at least " : ""}${mine.loss}${unit}: it leads to ${worth(mine.value_range)}, ` +
        `the best (${mine.best_cards.join(" ")}) to ${worth(mine.best_range)} with perfect play from here.`
      : `${mine.played} was a best card (${worth(mine.value_range)}${unit} with perfect play).`;
  } else if (t.first_round) {
    verdict = "First round: it decides the teams, not card points; the solver does not judge it.";
  }
  box.replaceChildren(head, row, el("p", { class: mine && mine.loss > 0 ? "verdict bad" : "verdict" }, verdict),
    el("p", { class: "small" }, `${solved.length - missed} of your ${solved.length} cards judged were best, ` +
      "each measured against perfect play from its position by both sides (every card seen)."));
  $("hs-prev").disabled = at === 0;
  $("hs-next").disabled = at === tricks.length - 1;
  $("hs-prev").addEventListener("click", () => stepHindsight(h, at - 1));
  $("hs-next").addEventListener("click", () => stepHindsight(h, at + 1));
  $("hs-close").addEventListener("click", () => { box.hidden = true; });
}

async function resume(id) {
  try {
    const next = await api(`/api/tables/${id}`);
    openTable();
    await show(next, false);
  } catch (err) {
    fail(err);
    history.replaceState(null, "", location.pathname + keepPace());
    closeTable();
  }
}

function keepPace() {
  return new URLSearchParams(location.search).has("pace") ? `?pace=${PACE}` : "";
}

function openTable() {
  $("setup").hidden = true;
  $("table").hidden = false;
  $("new").hidden = false;
}

// Back to the setup form: the old table, its header and its hindsight gone.
function closeTable() {
  state = null;
  dealKey = "";
  busy = true;
  $("table").hidden = true;
  $("hindsight").hidden = true;
  $("new").hidden = true;
  $("where").textContent = "";
  for (const id of ["top", "left", "right", "me", "hand", "question", "trick", "facts", "shown", "log", "last-trick"]) $(id).replaceChildren();
  $("setup").hidden = false;
}

// --- the setup form: games, seats, policies and the rule options from /api/games --------

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
      input = el("select", {}, ...o.allowed.map((v, k) => el("option", { value: k }, String(v).replaceAll("_", " "))));
      input.value = String(o.allowed.indexOf(o.default));
    }
    input.dataset.option = o.name;
    box.append(el("label", { class: "option" }, el("span", { class: "title" }, o.title), " ", input,
      el("code", { class: "id" }, o.name), el("span", { class: "doc" }, o.doc)));
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
    openTable();
    await show(next);
  } catch (err) {
    fail(err);
  }
}

async function main() {
  $("deck").value = deck;
  $("deck").addEventListener("change", () => {
    deck = $("deck").value;
    localStorage.setItem("stichsim-deck", deck);
    if (state) drawBoard(playsIn((state.board || state.final).tricks));
    if (state && state.final) drawResult();
  });
  games = await api("/api/games");
  $("game").replaceChildren(...Object.keys(games.games).map((g) => el("option", { value: g }, g.replaceAll("_", " "))));
  $("policy").replaceChildren(...games.policies.map((p) => el("option", { value: p }, games.policy_labels[p])));
  $("policy").value = games.default_policy;
  $("game").addEventListener("change", fillSeats);
  fillSeats();
  $("setup-form").addEventListener("submit", startTable);
  $("next").addEventListener("click", async () => {
    $("hindsight").hidden = true;
    try { await show(await api(`/api/tables/${state.id}/next`, {})); } catch (err) { fail(err); }
  });
  $("new").addEventListener("click", () => {
    history.replaceState(null, "", location.pathname + keepPace());
    closeTable();
  });
  const id = new URLSearchParams(location.search).get("table");
  if (id) await resume(id);
  else closeTable();
}

main().catch(fail);
