// The table page: draws the scene the server sends for this seat, offers the moves it lists,
// and sends back the one clicked. The server is the authority; this page only shows.
"use strict";

const token = location.pathname.split("/").filter(Boolean).pop();
const api = (path) => `/api/${token}/${path}`;
const $ = (id) => document.getElementById(id);

let data = null; // the last state the server sent
let watched = null; // the seat this page looks as (hot-seat: changes at each hand-over)
let chosen = null; // the element clicked whose moves wait for a choice
let socket = null;
let autoplay = null;

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "style") node.style.cssText = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

const faceUrl = (face) => `/face/${face.split("/").map(encodeURIComponent).join("/")}.png`;
const pct = (value) => `${(value * 100).toFixed(3)}%`;

// -- talking to the server ---------------------------------------------------------------

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const query = watched === null ? "" : `?seat=${watched}`;
  socket = new WebSocket(`${scheme}://${location.host}${api("ws")}${query}`);
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.error) toast(message.error);
    else show(message);
  };
  socket.onclose = () => setTimeout(connect, 1000);
}

async function post(path, body, raw = false) {
  const response = await fetch(api(path), {
    method: "POST",
    headers: { "Content-Type": raw ? "text/plain" : "application/json" },
    body: raw ? body : JSON.stringify(body),
  });
  const answer = await response.json();
  if (!response.ok) {
    toast(answer.error || `refused (${response.status})`);
    return;
  }
  show(answer);
}

function play(action) {
  chosen = null;
  post("act", { seat: data.seat, version: data.version, action });
}

function toast(text) {
  const box = $("toast");
  box.textContent = text;
  box.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => (box.hidden = true), 4000);
}

// -- drawing -----------------------------------------------------------------------------

function show(state) {
  // Answers and pushes may cross on the wire: never go back to an older position.
  if (data && state.version < data.version && state.seat === data.seat) return;
  const changed = !data || data.version !== state.version;
  data = state;
  window.__version = `${state.version}:${state.step}:${state.to_act}`; // for tests to wait on
  if (watched === null && state.seat !== null) watched = state.seat;
  if (changed) chosen = null;
  const link = state.link;
  const handOver =
    link.local &&
    link.seats.length > 1 &&
    !state.over &&
    state.to_act !== null &&
    link.seats.includes(state.to_act) &&
    state.to_act !== state.seat;
  $("pass").hidden = !handOver;
  document.body.classList.toggle("covered", handOver);
  if (handOver) {
    const name = state.seats[state.to_act].name;
    $("pass-text").textContent = `Pass the device to ${name}.`;
    $("pass-ok").textContent = `I am ${name}`;
    $("pass-ok").onclick = () => {
      watched = state.to_act;
      socket.send(JSON.stringify({ watch: state.to_act }));
    };
    $("table").replaceChildren();
    $("actions").replaceChildren();
    return;
  }
  drawBar(state);
  drawSeats(state);
  drawTable(state);
  drawLog(state);
  drawActions(state);
}

function drawBar(state) {
  const seat = state.seat === null ? "" : ` · you are ${state.seats[state.seat].name}`;
  $("title").textContent = `${state.game} · ${state.table}${seat}`;
  let status = state.scene.status;
  if (state.over && state.outcome) status = `Game over: ${state.outcome.text}`;
  else if (state.capped) status = "The table's step cap stopped this game.";
  else if (state.moves.length) status = `Your move. ${status}`;
  $("status").textContent = status;
  document.body.classList.toggle("your-move", state.moves.length > 0);
  const link = state.link;
  $("undo").hidden = !link.local || state.replay || state.over;
  $("save").hidden = !(link.local || state.over || state.replay);
  $("save").href = api("save");
  $("load").hidden = !link.local || state.replay;
  $("replay").hidden = !state.replay;
  if (state.replay) $("stepno").textContent = `${state.step} / ${state.length}`;
}

function drawSeats(state) {
  const infos = state.scene.seats;
  $("seats").replaceChildren(
    ...state.seats.map((seat, index) => {
      const info = infos[index] || { lines: [], out: false };
      const classes = ["seat"];
      if (state.to_act === index && !state.over) classes.push("acting");
      if (info.out) classes.push("out");
      if (state.seat === index) classes.push("me");
      if (state.outcome && state.outcome.winners.includes(index)) classes.push("winner");
      return el(
        "div",
        { class: classes.join(" "), "data-seat": index },
        el("strong", {}, seat.name),
        el("span", { class: "who" }, seat.player === "human" ? "human" : seat.player),
        ...info.lines.map((line) => el("span", { class: "line" }, line)),
      );
    }),
  );
}

function drawTable(state) {
  const offered = new Map();
  for (const move of state.moves) {
    if (!offered.has(move.element)) offered.set(move.element, []);
    offered.get(move.element).push(move);
  }
  const clickable = (element) => (element && offered.has(element) ? element : null);
  const areas = state.scene.areas.map((area) => {
    if (area.kind === "row") return drawRow(area, clickable);
    if (area.kind === "board") return drawBoard(area, clickable);
    if (area.kind === "track") return drawTrack(area);
    if (area.kind === "counters") return drawCounters(area);
    return el("div", {}, `(${area.kind})`);
  });
  $("table").replaceChildren(...areas);
  for (const node of $("table").querySelectorAll("[data-element]")) {
    const element = node.dataset.element;
    if (!offered.has(element)) continue;
    node.classList.add("playable");
    if (element === chosen) node.classList.add("chosen");
    node.addEventListener("click", (event) => {
      event.stopPropagation();
      const moves = offered.get(element);
      if (moves.length === 1) play(moves[0].action);
      else {
        chosen = element;
        drawTable(state);
        drawActions(state);
      }
    });
  }
}

function drawCard(card, clickable, size) {
  const element = clickable(card.element);
  const classes = ["card", size];
  if (card.turned) classes.push("turned");
  if (card.marked) classes.push("marked");
  if (!card.face) classes.push("blank");
  return el(
    "figure",
    {
      class: classes.join(" "),
      "data-element": element,
      "data-face": card.face,
      title: card.label || null,
    },
    card.face ? el("img", { src: faceUrl(card.face), alt: card.label || card.face, draggable: "false" }) : null,
    card.count !== null && card.count !== undefined ? el("span", { class: "count" }, card.count) : null,
    card.label ? el("figcaption", {}, card.label) : null,
  );
}

function drawRow(area, clickable) {
  return el(
    "div",
    { class: `area row ${area.size}` },
    el("h3", {}, area.title),
    el("div", { class: "cards" }, area.cards.map((card) => drawCard(card, clickable, area.size))),
  );
}

function drawBoard(area, clickable) {
  const board = el("div", { class: "board" });
  if (area.face) board.append(el("img", { class: "boardface", src: faceUrl(area.face), alt: area.title, draggable: "false" }));
  else board.classList.add("bare");
  for (const [card, x, y, w] of area.cards) {
    const node = drawCard(card, clickable, "onboard");
    node.style.cssText = `left:${pct(x)};top:${pct(y)};width:${pct(w)}`;
    board.append(node);
  }
  for (const spot of area.spots) {
    board.append(
      el("div", {
        class: "spot",
        "data-element": clickable(spot.element),
        "data-spot": spot.element,
        title: spot.label || null,
        style: `left:${pct(spot.x)};top:${pct(spot.y)};width:${pct(spot.w)};height:${pct(spot.h)}`,
      }),
    );
  }
  for (const piece of area.pieces) {
    const style = `left:${pct(piece.x - piece.size / 2)};top:${pct(piece.y)};width:${pct(piece.size)};--colour:${piece.colour}`;
    board.append(
      el(
        "div",
        { class: piece.face ? "piece faced" : "piece", style, title: piece.label || null },
        piece.face ? el("img", { src: faceUrl(piece.face), alt: piece.label, draggable: "false" }) : el("span", {}, piece.label),
      ),
    );
  }
  return el("div", { class: `area boardarea ${area.size}` }, el("h3", {}, area.title), board);
}

function drawTrack(area) {
  const cells = area.cells.map((label) => {
    const here = area.value !== null && String(area.value) === label;
    return el(
      "div",
      { class: here ? "cell here" : "cell" },
      el("span", {}, label),
      here && area.marker ? el("img", { src: faceUrl(area.marker), alt: "marker", draggable: "false" }) : null,
    );
  });
  const off = area.value === null ? el("span", { class: "off" }, "marker off the track") : null;
  const unprinted =
    area.value !== null && !area.cells.includes(String(area.value))
      ? el("span", { class: "off" }, `at ${area.value}`)
      : null;
  return el("div", { class: "area track" }, el("h3", {}, area.title), el("div", { class: "cells" }, cells), off, unprinted);
}

function drawCounters(area) {
  return el(
    "div",
    { class: "area counters" },
    el("h3", {}, area.title),
    el("dl", {}, area.values.map(([name, value]) => [el("dt", {}, name), el("dd", {}, value)])),
  );
}

function drawLog(state) {
  const log = $("log");
  log.start = state.log_start + 1;
  log.replaceChildren(...state.log.map((line) => el("li", {}, line)));
  if (log.lastChild) {
    log.lastChild.classList.add("latest");
    log.lastChild.scrollIntoView({ block: "nearest" });
  }
}

function drawActions(state) {
  const bar = $("actions");
  const buttons = [];
  if (chosen !== null) {
    for (const move of state.moves.filter((m) => m.element === chosen)) {
      buttons.push(el("button", { class: "choice", onclick: () => play(move.action) }, move.label || move.action));
    }
    buttons.push(el("button", { class: "cancel", onclick: () => { chosen = null; drawTable(state); drawActions(state); } }, "Cancel"));
  } else {
    for (const move of state.moves.filter((m) => !m.element)) {
      buttons.push(el("button", { class: "move", onclick: () => play(move.action) }, move.label || move.action));
    }
    if (state.moves.some((m) => m.element)) buttons.unshift(el("span", { class: "hint" }, "Click a glowing card or space."));
  }
  if (!state.moves.length && !state.over && !state.replay) {
    const acting = state.to_act === null ? "Chance" : state.seats[state.to_act].name;
    buttons.push(el("span", { class: "hint" }, `Waiting for ${acting}…`));
  }
  bar.replaceChildren(...buttons);
}

// -- tools -------------------------------------------------------------------------------

$("undo").addEventListener("click", () => post("undo", { version: data.version, seat: data.seat }));
$("load").querySelector("input").addEventListener("change", async (event) => {
  const file = event.target.files[0];
  if (file) post("load", await file.text(), true);
  event.target.value = "";
});
for (const button of document.querySelectorAll("[data-seek]")) {
  button.addEventListener("click", () => seek(button.dataset.seek));
}
function seek(where) {
  const target = { first: 0, prev: data.step - 1, next: data.step + 1, last: data.length }[where];
  if (target < 0 || target > data.length) return;
  post("seek", { step: target });
}
$("autoplay").addEventListener("click", () => {
  if (autoplay) {
    clearInterval(autoplay);
    autoplay = null;
    return;
  }
  autoplay = setInterval(() => {
    if (!data || data.step >= data.length) {
      clearInterval(autoplay);
      autoplay = null;
    } else seek("next");
  }, 700);
});

connect();
