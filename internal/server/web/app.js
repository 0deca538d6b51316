// The Mastermind web page: plays a game against the server's JSON API.
"use strict";

const SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
// Colours distinct to most eyes first; every peg also shows its symbol.
const COLOURS = [
  ["red", "#e6194b"], ["green", "#3cb44b"], ["yellow", "#ffe119"], ["blue", "#4363d8"],
  ["orange", "#f58231"], ["purple", "#911eb4"], ["cyan", "#42d4f4"], ["magenta", "#f032e6"],
  ["lime", "#bfef45"], ["pink", "#fabed4"], ["teal", "#469990"], ["lavender", "#dcbeff"],
  ["brown", "#9a6324"], ["beige", "#fffac8"], ["maroon", "#800000"], ["mint", "#aaffc3"],
  ["olive", "#808000"], ["apricot", "#ffd8b1"], ["navy", "#000075"], ["grey", "#a9a9a9"],
  ["white", "#ffffff"], ["black", "#000000"],
];

const $ = (id) => document.getElementById(id);

let game = null;   // the game as the API shows it
let token = null;  // the game's token, if this tab's player started it
let hints = true;  // the server gives hints
let guess = [];    // colours of the guess being composed
let hinted = false; // guess is the solver's hint, untouched: typing replaces it
let busy = false;  // a request is under way
let ticker = null; // the countdown's interval
let deadline = 0;  // performance.now() at which time runs out
let coachFor = null; // the game whose coach's figures are shown or on their way
let hintWait = null; // the wait to ask again for a hint refused for now

function colour(k) {
  if (k < COLOURS.length) return COLOURS[k];
  return ["colour " + (k + 1), "hsl(" + Math.round((k * 137.508) % 360) + " 65% 55%)"];
}

function colourName(k) { return colour(k)[0] + " (" + SYMBOLS[k] + ")"; }

// The token of each game started in this tab stays in sessionStorage, so
// that a reload goes on playing; another tab, or another person given the
// link, watches.
function tokenKey(id) { return "mastermind-token:" + id; }

function savedToken(id) {
  try { return sessionStorage.getItem(tokenKey(id)); } catch (e) { return null; }
}

function saveToken(id, t) {
  try { sessionStorage.setItem(tokenKey(id), t); } catch (e) { /* private mode: this page only */ }
}

// api sends a request, with the game's token if auth is set, and returns
// the decoded answer, or throws an Error with the server's message and the
// HTTP status.
async function api(method, path, body, auth) {
  const opts = { method, headers: { "Accept": "application/json" } };
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  if (auth && token) opts.headers["Authorization"] = "Bearer " + token;
  const resp = await fetch(path, opts);
  let data = null;
  try { data = await resp.json(); } catch (e) { data = null; }
  if (!resp.ok) {
    const msg = data && data.error ? data.error : resp.status + " " + resp.statusText;
    const err = new Error(msg.replace(/^mastermind: /, ""));
    err.status = resp.status;
    // Seconds to wait before asking again, for a busy solver or a share
    // of it spent; null if the server did not say.
    const after = Number(resp.headers.get("Retry-After"));
    err.retryAfter = resp.headers.has("Retry-After") && after >= 0 ? after : null;
    throw err;
  }
  return data;
}

function peg(k, tag) {
  const el = document.createElement(tag);
  el.className = "peg";
  const [name, css] = colour(k);
  el.style.background = css;
  if (["black", "navy", "maroon", "purple", "blue"].includes(name)) el.style.color = "#fff";
  el.textContent = SYMBOLS[k];
  el.dataset.color = String(k);
  return el;
}

// codeView shows a code as a row of pegs, read out by screen readers as
// its symbols and colour names.
function codeView(code) {
  const span = document.createElement("span");
  span.className = "code";
  span.setAttribute("role", "img");
  const ks = [...code].map((ch) => SYMBOLS.indexOf(ch));
  span.setAttribute("aria-label", code + ": " + ks.map((k) => colour(k)[0]).join(", "));
  for (const k of ks) {
    const p = peg(k, "span");
    p.setAttribute("aria-hidden", "true");
    span.append(p);
  }
  return span;
}

function feedbackView(black, white) {
  const cell = document.createDocumentFragment();
  const keys = document.createElement("span");
  keys.className = "keys";
  keys.setAttribute("aria-hidden", "true");
  for (let i = 0; i < black + white; i++) {
    const k = document.createElement("span");
    k.className = "key " + (i < black ? "black" : "white");
    keys.append(k);
  }
  const text = document.createElement("span");
  text.className = "feedback";
  text.textContent = black + " black, " + white + " white";
  cell.append(keys, text);
  return cell;
}

function setStatus(msg, isError) {
  const s = $("status");
  s.textContent = msg;
  s.classList.toggle("error", !!isError);
}

function playing() { return game !== null && game.state === "playing"; }

// mine reports whether this tab plays the game rather than watches it.
function mine() { return token !== null; }

// canGuess reports whether this tab may guess now.
function canGuess() { return playing() && mine(); }

function render() {
  $("game").hidden = game === null;
  if (game === null) return;
  const limit = game.maxGuesses ? game.maxGuesses + " guesses" : "no guess limit";
  const time = game.timeLimitMs ? game.timeLimitMs / 1000 + " s" : "no time limit";
  $("game-title").textContent = mine() ? "Your guess" : "Watching this game";
  $("rules-line").textContent = game.colors + " colours × " + game.pegs + " pegs, " +
    (game.distinct ? "no repeated colours" : "repeats allowed") + "; " + limit + ", " + time + "." +
    (game.adversary ? " The server holds no code: it answers each guess so as to keep the most codes possible." : "");

  const palette = $("palette");
  palette.replaceChildren();
  for (let k = 0; k < game.colors; k++) {
    const b = peg(k, "button");
    b.type = "button";
    b.setAttribute("aria-label", colourName(k));
    b.title = colourName(k);
    b.disabled = !canGuess() || (guess.length >= game.pegs && !hinted) || (game.distinct && guess.includes(k) && !hinted);
    b.addEventListener("click", () => place(k));
    palette.append(b);
  }

  const current = $("current");
  current.replaceChildren();
  for (let i = 0; i < game.pegs; i++) {
    let b;
    if (i < guess.length) {
      b = peg(guess[i], "button");
      b.setAttribute("aria-label", "hole " + (i + 1) + ": " + colourName(guess[i]) + "; take it out");
      b.addEventListener("click", () => { guess.splice(i, 1); hinted = false; render(); });
    } else {
      b = document.createElement("button");
      b.className = "peg empty";
      b.textContent = "·";
      b.setAttribute("aria-label", "hole " + (i + 1) + ": empty");
    }
    b.type = "button";
    b.disabled = !canGuess() || (i >= guess.length);
    current.append(b);
  }

  $("submit").disabled = busy || !canGuess() || guess.length !== game.pegs;
  $("clear").disabled = !canGuess() || guess.length === 0;
  $("hint").disabled = busy || !canGuess() || hintWait !== null;
  $("hint").hidden = !hints;

  const body = $("history").tBodies[0];
  body.replaceChildren();
  game.history.forEach((t, i) => {
    const tr = document.createElement("tr");
    const n = document.createElement("td");
    n.textContent = String(i + 1);
    const g = document.createElement("td");
    g.append(codeView(t.guess));
    const f = document.createElement("td");
    f.append(feedbackView(t.black, t.white));
    tr.append(n, g, f);
    body.append(tr);
  });

  $("secret-line").hidden = !game.secret;
  $("secret-label").textContent = game.adversary && game.state !== "won" ? "A code that fits every answer:" : "The secret:";
  if (game.secret) $("secret").replaceChildren(codeView(game.secret));
}

function announce() {
  if (game.state === "won") {
    setStatus("You found it in " + game.guesses + (game.guesses === 1 ? " guess!" : " guesses!"));
  } else if (game.state === "lost") {
    setStatus("Game over: " + (game.timeLimitMs && (!game.maxGuesses || game.guesses < game.maxGuesses)
      ? "time ran out." : "no guesses left."));
  } else if (!mine()) {
    setStatus("You are watching this game: only the player who started it can guess.");
  } else {
    const left = game.maxGuesses ? " of " + game.maxGuesses : "";
    setStatus("Guess " + (game.guesses + 1) + left + ": choose " + game.pegs + " colours, then Guess.");
  }
}

// lostToken makes this tab a spectator after the server refused its token.
function lostToken(e) {
  if (e.status !== 401 && e.status !== 403) return false;
  token = null;
  render();
  setStatus("This tab cannot play this game any more: " + e.message, true);
  return true;
}

function place(k) {
  if (hinted) {
    // A colour chosen after a hint starts a guess of one's own.
    guess = [];
    hinted = false;
  }
  if (!canGuess() || guess.length >= game.pegs) return;
  if (game.distinct && guess.includes(k)) return;
  guess.push(k);
  render();
  if (guess.length === game.pegs) $("submit").focus();
}

function startClock() {
  clearInterval(ticker);
  ticker = null;
  const t = $("timer");
  if (!playing() || game.remainingMs === undefined) { t.hidden = true; return; }
  deadline = performance.now() + game.remainingMs;
  t.hidden = false;
  const tick = () => {
    const left = Math.max(0, deadline - performance.now());
    t.textContent = "Time left: " + (left / 1000).toFixed(1) + " s";
    if (left <= 0 || !playing()) {
      clearInterval(ticker);
      ticker = null;
      if (playing()) setTimeout(refresh, 100);
    }
  };
  tick();
  ticker = setInterval(tick, 100);
}

// show makes g the game on the page, played with the token of this tab if
// it has one.
function show(g) {
  cancelHintWait();
  if (g.token) saveToken(g.id, g.token);
  token = savedToken(g.id) || g.token || null;
  delete g.token;
  game = g;
  game.history = game.history || [];
  guess = [];
  hinted = false;
  history.replaceState(null, "", "#" + g.id);
  render();
  announce();
  startClock();
  if (!playing()) loadCoach();
}

async function refresh() {
  if (game === null) return;
  try {
    const g = await api("GET", "/api/games/" + encodeURIComponent(game.id));
    game = g;
    render();
    announce();
    startClock();
    if (!playing()) { loadStats(); loadCoach(); }
  } catch (e) {
    setStatus(e.message, true);
  }
}

async function submit() {
  if (busy || !canGuess() || guess.length !== game.pegs) return;
  const code = guess.map((k) => SYMBOLS[k]).join("");
  cancelHintWait();
  busy = true;
  render();
  try {
    const f = await api("POST", "/api/games/" + encodeURIComponent(game.id) + "/guesses", { guess: code }, true);
    game.history.push({ guess: code, black: f.black, white: f.white });
    game.guesses = f.guesses;
    game.state = f.state;
    if (f.secret) game.secret = f.secret;
    guess = [];
    hinted = false;
    busy = false;
    render();
    announce();
    if (!playing()) { startClock(); loadStats(); loadCoach(); }
  } catch (e) {
    busy = false;
    render();
    if (lostToken(e)) return;
    setStatus(e.message, true);
    if (e.status === 409) refresh();
  }
}

// sleep resolves after the given seconds, counting them down with tick,
// or at once with false if cancel is called first.
function sleep(seconds, tick) {
  let cancel;
  const p = new Promise((resolve) => {
    let left = Math.max(1, Math.ceil(seconds));
    tick(left);
    const t = setInterval(() => {
      left--;
      if (left > 0) { tick(left); return; }
      clearInterval(t);
      resolve(true);
    }, 1000);
    cancel = () => { clearInterval(t); resolve(false); };
  });
  return { done: p, cancel };
}

// cancelHintWait stops waiting to ask for a hint again.
function cancelHintWait() {
  if (hintWait !== null) hintWait.cancel();
  hintWait = null;
}

// hint asks the server's solver for the next guess. A hint refused for
// now (the solver busy, or this player's share of it spent) is asked for
// again once the server's Retry-After has passed, saying so meanwhile;
// a guess or a new game in the meantime cancels it.
async function hint() {
  if (busy || !canGuess() || hintWait !== null) return;
  const id = game.id, turns = game.history.length;
  const current = () => game !== null && game.id === id && game.history.length === turns && canGuess();
  busy = true;
  render();
  setStatus("Thinking…");
  for (;;) {
    try {
      const h = await api("GET", "/api/games/" + encodeURIComponent(id) + "/hint", undefined, true);
      busy = false;
      if (!current()) { render(); return; }
      guess = [...h.guess].map((ch) => SYMBOLS.indexOf(ch));
      hinted = true;
      render();
      setStatus("The solver suggests " + h.guess + ". Press Guess to play it, or choose colours for a guess of your own.");
      $("submit").focus();
      return;
    } catch (e) {
      busy = false;
      render();
      if (lostToken(e)) return;
      if (e.retryAfter === null || (e.status !== 429 && e.status !== 503) || !current()) {
        if (current()) setStatus("No hint: " + e.message, true);
        return;
      }
      // Wait as the server asks, then ask again; the player may guess
      // meanwhile, which ends the wait.
      hintWait = sleep(e.retryAfter, (left) => {
        if (current()) setStatus("No hint yet: " + e.message.replace(/; try again$/, "") + ". Asking again in " + left + " s…");
      });
      render();
      const again = await hintWait.done;
      hintWait = null;
      if (!again || !current()) { render(); return; }
      busy = true;
      render();
      setStatus("Thinking…");
    }
  }
}

async function newGame(ev) {
  ev.preventDefault();
  const num = (id) => Number($(id).value);
  const body = {
    colors: num("colors"), pegs: num("pegs"), distinct: $("distinct").checked,
    maxGuesses: num("max-guesses"), timeLimitMs: Math.round(num("time-limit") * 1000),
    adversary: $("adversary").checked,
  };
  $("start").disabled = true;
  try {
    show(await api("POST", "/api/games", body));
    const first = $("palette").querySelector("button:not(:disabled)");
    if (first) first.focus();
  } catch (e) {
    game = null;
    token = null;
    render();
    $("game").hidden = false;
    setStatus(e.message, true);
  } finally {
    $("start").disabled = false;
  }
}

// loadCoach shows, once a game is over, what each guess cost against the
// server's solver: the guesses expected from its position with it and
// with the solver's, and the codes each left.
async function loadCoach() {
  const box = $("coach");
  if (game === null || !hints || coachFor === game.id) return;
  const id = game.id;
  coachFor = id;
  box.hidden = true;
  try {
    const c = await api("GET", "/api/games/" + encodeURIComponent(id) + "/coach");
    if (game === null || game.id !== id) return;
    const body = $("coach-moves").tBodies[0];
    body.replaceChildren();
    c.moves.forEach((m, i) => {
      const tr = document.createElement("tr");
      // A position with too many codes to weigh is scored by the codes
      // each guess was expected to leave.
      const cells = m.scored
        ? [String(i + 1), null, "·", "~" + (m.expectedLeft || 0).toFixed(1) + " / ~" + (m.bestExpectedLeft || 0).toFixed(1) + " codes left",
          null, m.left + " / " + m.bestLeft]
        : [String(i + 1), null, (m.delta > 0 ? "+" : "") + m.delta.toFixed(2),
          m.expected.toFixed(2) + " / " + m.bestExpected.toFixed(2), null, m.left + " / " + m.bestLeft];
      cells.forEach((text, k) => {
        const td = document.createElement("td");
        if (k === 1) td.append(codeView(m.guess));
        else if (k === 4) td.append(codeView(m.best));
        else td.textContent = text;
        tr.append(td);
      });
      if (m.delta > 0.005) tr.className = "costly";
      body.append(tr);
    });
    $("coach-total").textContent = c.delta < -0.005
      ? "In all your guesses saved " + (-c.delta).toFixed(2) + " guesses expected against the solver's."
      : "In all your guesses cost " + c.delta.toFixed(2) + " guesses expected against the solver's" +
        " (Δ: yours minus the solver's, each played on by the solver).";
    if (c.moves.some((m) => m.scored)) {
      $("coach-total").textContent += " Guesses marked · had too many codes to weigh: they show the codes each was expected to leave.";
    }
    box.hidden = false;
  } catch (e) {
    if (game === null || game.id !== id) return;
    $("coach-total").textContent = "No coach for this game: " + e.message;
    $("coach-moves").tBodies[0].replaceChildren();
    box.hidden = false;
  }
}

async function loadStats() {
  try {
    const s = await api("GET", "/api/stats");
    $("stats").textContent = "This server has held " + s.played + (s.played === 1 ? " game" : " games") +
      "; " + s.won + " won" + (s.won ? ", in " + s.meanGuesses + " guesses on average" : "") + ".";
  } catch (e) {
    $("stats").textContent = "";
  }
}

// loadConfig fills the form with the server's defaults and limits.
async function loadConfig() {
  try {
    const c = await api("GET", "/api/config");
    hints = c.hints;
    $("colors").value = c.defaults.colors;
    $("colors").max = c.limits.maxColors;
    $("pegs").value = c.defaults.pegs;
    $("pegs").max = c.limits.maxPegs;
    $("distinct").checked = c.defaults.distinct;
    $("max-guesses").value = c.defaults.maxGuesses;
    $("max-guesses").max = c.limits.maxGuesses;
    $("time-limit").value = c.defaults.timeLimitMs / 1000;
    $("time-limit").max = c.limits.maxTimeLimitMs / 1000;
    render();
  } catch (e) {
    // The form keeps the classic defaults.
  }
}

document.addEventListener("keydown", (ev) => {
  if (!canGuess() || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const tag = ev.target.tagName;
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
  if (ev.key === "Backspace") {
    guess.pop();
    hinted = false;
    render();
    ev.preventDefault();
  } else if (ev.key === "Enter" && tag !== "BUTTON") {
    submit();
  } else if (ev.key.length === 1) {
    const k = SYMBOLS.indexOf(ev.key.toUpperCase());
    if (k >= 0 && k < game.colors) place(k);
  }
});

$("new-game").addEventListener("submit", newGame);
$("submit").addEventListener("click", submit);
$("clear").addEventListener("click", () => { guess = []; hinted = false; render(); });
$("hint").addEventListener("click", hint);

(async function init() {
  loadStats();
  await loadConfig();
  const id = location.hash.slice(1);
  if (!id) return;
  try {
    show(await api("GET", "/api/games/" + encodeURIComponent(id)));
  } catch (e) {
    history.replaceState(null, "", location.pathname);
  }
})();
