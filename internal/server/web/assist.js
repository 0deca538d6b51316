// The assistant page: follows a game on a real board through the server's
// stateless POST /api/assist, or watches the solver break a code drawn here.
"use strict";

const SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const $ = (id) => document.getElementById(id);

let rules = null;   // {colors, pegs, distinct} of the session
let turns = [];     // [{guess, black, white, left}]
let answer = null;  // the server's last answer
let watching = null; // the secret the solver breaks, while watching
let timer = null;

async function api(method, path, body) {
  const opts = { method, headers: { "Accept": "application/json" } };
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  const resp = await fetch(path, opts);
  let data = null;
  try { data = await resp.json(); } catch (e) { data = null; }
  if (!resp.ok) {
    const err = new Error((data && data.error ? data.error : resp.status + " " + resp.statusText).replace(/^mastermind: /, ""));
    err.status = resp.status;
    // Seconds to wait before asking again; null if the server did not say.
    const after = Number(resp.headers.get("Retry-After"));
    err.retryAfter = resp.headers.has("Retry-After") && after >= 0 ? after : null;
    throw err;
  }
  return data;
}

// session counts the sessions started, so that a wait of one that has
// ended is abandoned.
let session = 0;

// patiently calls f until it does not throw a refusal for now (429 or
// 503 with Retry-After), waiting as the server asks and saying so; it
// throws any other error, or Error("abandoned") if the session changed.
async function patiently(f) {
  const mine = session;
  for (;;) {
    try {
      return await f();
    } catch (e) {
      if (e.retryAfter === null || e.retryAfter === undefined || (e.status !== 429 && e.status !== 503)) throw e;
      for (let left = Math.max(1, Math.ceil(e.retryAfter)); left > 0; left--) {
        if (session !== mine) throw new Error("abandoned");
        setStatus("The solver cannot answer yet: " + e.message.replace(/; try again$/, "") + ". Asking again in " + left + " s…");
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
      if (session !== mine) throw new Error("abandoned");
    }
  }
}

// score returns the black and white pegs guess g gets against code c.
function score(g, c) {
  let black = 0;
  const cg = {}, cc = {};
  for (let i = 0; i < g.length; i++) {
    if (g[i] === c[i]) { black++; continue; }
    cg[g[i]] = (cg[g[i]] || 0) + 1;
    cc[c[i]] = (cc[c[i]] || 0) + 1;
  }
  let white = 0;
  for (const k in cg) white += Math.min(cg[k], cc[k] || 0);
  return { black, white };
}

function setStatus(msg, isError) {
  $("status").textContent = msg;
  $("status").classList.toggle("error", !!isError);
}

// ask sends the history and shows the answer; it throws on a refusal.
// It waits out a refusal for now, as patiently does.
async function ask() {
  const body = {
    colors: rules.colors, pegs: rules.pegs, distinct: rules.distinct, strategy: rules.strategy,
    history: turns.map((t) => ({ guess: t.guess, black: t.black, white: t.white })),
  };
  answer = await patiently(() => api("POST", "/api/assist", body));
  if (turns.length > 0) turns[turns.length - 1].left = answer.remaining;
  render();
}

function render() {
  $("session").hidden = rules === null;
  if (rules === null) return;
  const body = $("answers").tBodies[0];
  body.replaceChildren();
  turns.forEach((t, i) => {
    const tr = document.createElement("tr");
    for (const text of [String(i + 1), t.guess, t.black + " black, " + t.white + " white", t.left === null || t.left === undefined ? "?" : String(t.left)]) {
      const td = document.createElement("td");
      td.textContent = text;
      tr.append(td);
    }
    body.append(tr);
  });
  const n = answer ? answer.remaining : null;
  $("left-count").textContent = n === null ? "Too many to count." :
    (n === 1 ? "1 code" : n + " codes") + (answer.codes.length < n ? "; the first " + answer.codes.length + ":" : ":");
  $("left-codes").textContent = answer ? answer.codes.join(" ") : "";
  const solved = answer && answer.solved;
  $("proposal").textContent = solved ? "Solved in " + turns.length + (turns.length === 1 ? " guess." : " guesses.") :
    "The solver proposes " + answer.guess + (watching ? " (watching it break " + watching + ")." : ".");
  for (const id of ["guess", "black", "white", "answer"]) $(id).disabled = solved || watching !== null;
  $("undo").disabled = turns.length === 0 || watching !== null;
  if (solved) $("guess").value = "";
  else if (watching === null) $("guess").value = answer.guess;
}

async function start(ev) {
  if (ev) ev.preventDefault();
  stopWatching();
  session++;
  rules = {
    colors: Number($("colors").value), pegs: Number($("pegs").value), distinct: $("distinct").checked,
    strategy: $("strategy").value,
  };
  turns = [];
  try {
    await ask();
    setStatus("Play the proposed guess (or type your own), then enter its black and white pegs.");
  } catch (e) {
    if (e.message === "abandoned") return;
    rules = null;
    render();
    $("session").hidden = false;
    setStatus(e.message, true);
  }
}

async function submit(ev) {
  ev.preventDefault();
  const guess = $("guess").value.replace(/[\s,]/g, "").toUpperCase();
  turns.push({ guess, black: Number($("black").value), white: Number($("white").value), left: null });
  try {
    await ask();
    $("black").value = 0;
    $("white").value = 0;
    setStatus(answer.solved ? "Found." : "Answer " + turns.length + " taken.");
  } catch (e) {
    if (e.message === "abandoned") return;
    turns.pop();
    render();
    setStatus("Not taken: " + e.message, true);
  }
}

async function undo() {
  if (turns.length === 0) return;
  const t = turns.pop();
  try {
    await ask();
    setStatus("Took back answer " + (turns.length + 1) + " (" + t.guess + ").");
  } catch (e) {
    if (e.message === "abandoned") return;
    setStatus(e.message, true);
  }
}

function stopWatching() {
  clearTimeout(timer);
  timer = null;
  watching = null;
}

// watch lets the solver break a code drawn at random, a guess a second.
async function watch() {
  await start();
  if (rules === null) return;
  const pool = SYMBOLS.slice(0, rules.colors).split("");
  let secret = "";
  while (secret.length < rules.pegs) {
    const ch = pool[Math.floor(Math.random() * pool.length)];
    if (rules.distinct && secret.includes(ch)) continue;
    secret += ch;
  }
  watching = secret;
  render();
  const step = async () => {
    if (watching !== secret) return;
    const f = score(answer.guess, secret);
    turns.push({ guess: answer.guess, black: f.black, white: f.white, left: null });
    try {
      await ask();
    } catch (e) {
      if (watching !== secret) return; // a new session meanwhile
      stopWatching();
      render();
      setStatus(e.message, true);
      return;
    }
    if (answer.solved) {
      setStatus("The solver found " + secret + " in " + turns.length + (turns.length === 1 ? " guess." : " guesses."));
      watching = null;
      render();
      return;
    }
    setStatus("Guess " + turns.length + ": " + f.black + " black, " + f.white + " white.");
    timer = setTimeout(step, 800);
  };
  timer = setTimeout(step, 800);
}

async function loadConfig() {
  try {
    const c = await api("GET", "/api/config");
    $("colors").value = c.defaults.colors;
    $("colors").max = c.limits.maxColors;
    $("pegs").value = c.defaults.pegs;
    $("pegs").max = c.limits.maxPegs;
    $("distinct").checked = c.defaults.distinct;
    for (const name of c.strategies || []) {
      const o = document.createElement("option");
      o.value = name;
      o.textContent = name;
      $("strategy").append(o);
    }
    if (!c.hints) setStatus("This server gives no hints, so the assistant cannot work here.", true);
  } catch (e) {
    // The form keeps the classic defaults.
  }
}

$("rules-form").addEventListener("submit", start);
$("answer-form").addEventListener("submit", submit);
$("undo").addEventListener("click", undo);
$("watch").addEventListener("click", watch);
loadConfig();
