// climbot playground: one page over the playground's JSON API. Views, decisions and
// explanations are the API's own proto3 JSON; each game below says how to read its
// cards, its table and its seats.
"use strict";

const LEVELS = ["easy", "normal", "hard", "expert"];
const DELAYS_MS = [1500, 800, 400, 150, 0];

const title = (t) => (!t || t.endsWith("UNSPECIFIED") ? ""
  : t.replace(/^[A-Z]+_TITLE_/, "").replace(/_/g, " ").toLowerCase());

const LEXIO_SUITS = {
  LEXIO_SUIT_CLOUD: ["☁", "cloud"], LEXIO_SUIT_STAR: ["★", "star"],
  LEXIO_SUIT_MOON: ["☾", "moon"], LEXIO_SUIT_SUN: ["☀", "sun"],
};
const DAIFUGO_SUITS = {
  DAIFUGO_SUIT_SPADES: ["♠", "spades"], DAIFUGO_SUIT_HEARTS: ["♥", "hearts"],
  DAIFUGO_SUIT_DIAMONDS: ["♦", "diamonds"], DAIFUGO_SUIT_CLUBS: ["♣", "clubs"],
};
const DAIFUGO_RANKS = { 11: "J", 12: "Q", 13: "K", 14: "A", 15: "2" };

function lexioTile(t) {
  const [symbol, cls] = LEXIO_SUITS[t.suit] || ["?", ""];
  return { kind: `${t.number}-${t.suit}`, label: `${t.number}${symbol}`, cls };
}
function daifugoCard(c) {
  if (c.joker) return { kind: `joker${c.joker}`, label: "Joker", cls: "joker" };
  const [symbol, cls] = DAIFUGO_SUITS[c.suit] || ["?", ""];
  return { kind: `${c.rank}-${c.suit}`, label: `${DAIFUGO_RANKS[c.rank] || c.rank}${symbol}`, cls };
}
// A joker's label in a play: what it stands for inside a group or a sequence, plain
// "Joker" when it declares nothing (a lone joker, the joker pair, a group of five).
// Past a sequence's ends it stands for an imaginary card: rank 2 below the 3, 16 above
// the 2.
function daifugoPlayed(pc) {
  if (!pc.card.joker) return daifugoCard(pc.card).label;
  const d = pc.declared;
  if (!d) return "Joker";
  const [symbol] = DAIFUGO_SUITS[d.suit] || ["?"];
  const stands = d.rank === 2 ? `below 3${symbol}` : d.rank === 16 ? `above 2${symbol}` : daifugoCard(d).label;
  return `Joker=${stands}`;
}
function dalmutiCard(rank) {
  return { kind: String(rank), label: rank === 13 ? "Jester" : String(rank), cls: rank === 13 ? "joker" : "" };
}
function dalmutiCards(counts) {
  const out = [];
  (counts || []).forEach((n, i) => { for (let k = 0; k < n; k++) out.push(dalmutiCard(i + 1)); });
  return out;
}
function dalmutiPlay(p) {
  const out = [];
  for (let k = 0; k < (p.naturals || 0); k++) out.push(dalmutiCard(p.rank));
  for (let k = 0; k < (p.jesters || 0); k++) out.push(dalmutiCard(13));
  return out;
}

// Per game: the seat's hand, a decision's cards (null for a decision without cards),
// a decision's label, the play to beat, the seats and the deal number; what a card is
// called, and `seatsMove` for a game whose players change seats between deals.
const GAMES = {
  lexio: {
    name: "Lexio", players: [3, 4, 5], card: "tile",
    view: (v) => v.lexio,
    hand: (v) => (v.hand || []).map(lexioTile),
    cards: (d) => (d.lexio.play ? d.lexio.play.tiles.map(lexioTile) : null),
    label: (d) => (d.lexio.play
      ? `${d.lexio.play.tiles.map((t) => lexioTile(t).label).join(" ")} (${title(d.lexio.play.combination).replace("lexio combination ", "")})`
      : "pass"),
    table: (v) => (v.table && v.table.tiles && v.table.tiles.length
      ? { owner: v.table.owner, cards: v.table.tiles.map(lexioTile) } : null),
    seats: (v) => (v.seats || []).map((s, i) => ({
      count: s.tile_count, score: (v.scores || [])[i],
    })),
    deal: (v) => v.round,
    phase: () => "",
  },
  daifugo: {
    name: "Daifugo", players: [3, 4, 5, 6, 7], card: "card",
    view: (v) => v.daifugo,
    hand: (v) => (v.hand || []).map(daifugoCard),
    cards: (d) => {
      const g = d.daifugo;
      if (g.play) return g.play.cards.map((pc) => daifugoCard(pc.card));
      if (g.exchange) return g.exchange.cards.map(daifugoCard);
      return null;
    },
    label: (d) => {
      const g = d.daifugo;
      if (g.play) {
        return g.play.cards.map(daifugoPlayed).join(" ");
      }
      if (g.exchange) return `give ${g.exchange.cards.map((c) => daifugoCard(c).label).join(" ")}`;
      return "pass";
    },
    table: (v) => (v.table && v.table.cards && v.table.cards.length
      ? { owner: v.table.owner, cards: v.table.cards.map((pc) => daifugoCard(pc.card)) } : null),
    seats: (v) => (v.seats || []).map((s) => ({
      count: s.card_count, title: title(s.title), passed: s.passed, finished: s.finished,
    })),
    deal: (v) => v.game,
    phase: (v) => {
      const notes = [];
      if (v.phase === "DAIFUGO_PHASE_EXCHANGE") notes.push(`exchange: give back ${v.give_back} card(s)`);
      if (v.revolution) notes.push("revolution");
      if (v.jack_back) notes.push("jack back");
      if (v.lock && v.lock.length) notes.push(`suit lock ${v.lock.map((s) => (DAIFUGO_SUITS[s] || ["?"])[0]).join("")}`);
      return notes.join(" · ");
    },
  },
  dalmuti: {
    name: "The Great Dalmuti", players: [4, 5, 6, 7, 8], card: "card", seatsMove: true,
    view: (v) => v.dalmuti,
    hand: (v) => dalmutiCards(v.hand && v.hand.counts),
    cards: (d) => {
      const g = d.dalmuti;
      if (g.play) return dalmutiPlay(g.play);
      if (g.tax_return) return dalmutiCards(g.tax_return.counts);
      return null;
    },
    label: (d) => {
      const g = d.dalmuti;
      if (g.play) return dalmutiPlay(g.play).map((c) => c.label).join(" ");
      if (g.tax_return) return `return ${dalmutiCards(g.tax_return.counts).map((c) => c.label).join(" ")}`;
      if (g.revolution) return g.revolution.declare ? "declare a revolution" : "no revolution";
      return "pass";
    },
    // The set on the table is the hand's last play in the log (a cleared table is
    // empty), so the log names who played it.
    table: (v) => {
      if (!v.table || !(v.table.naturals || v.table.jesters)) return null;
      const last = (v.log || []).filter((e) => e.play).pop();
      return { owner: last ? (last.seat || 0) : null, cards: dalmutiPlay(v.table) };
    },
    seats: (v) => (v.seats || []).map((s) => ({
      count: s.card_count, title: title(s.title), finished: s.finished, score: s.score,
    })),
    deal: (v) => v.hand_number,
    phase: (v) => (v.phase === "DALMUTI_PHASE_TAX_RETURN" ? "tax: return cards"
      : v.phase === "DALMUTI_PHASE_REVOLUTION" ? "revolution?" : ""),
  },
};

const $ = (id) => document.getElementById(id);
let state = null;      // the table's latest state
let selected = [];     // indices into the shown hand
let auto = false;      // bots move by themselves
let busy = false;      // a request is on its way
let timer = null;
let hint = null;       // {moves, data | error, picked}: the hint for the view after `moves` moves
let hintBusy = false;  // a hint is being computed
let reviews = new Map(); // deal number -> its review, or {loading} / {error}
let reviewDeal = null; // the deal whose review is shown

async function api(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: body ? { "Content-Type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new Error((data && data.error) || `HTTP ${response.status}`);
  return data;
}

function say(text) { $("message").textContent = text || ""; }

// Players are places in the lineup (human_seat, to_act, the totals, each move's
// player); table seats number the views (each view's and each move's seat). The
// state's `seating` gives the player at each table seat of its view's deal.
function playerAt(seat) { return state.seating ? state.seating[seat] : seat; }
function who(player, withLevel = true) {
  if (player === state.human_seat) return "you";
  const noun = GAMES[state.game].seatsMove ? "player" : "seat";
  return withLevel ? `${noun} ${player} (${state.lineup[player]})` : `${noun} ${player}`;
}
const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);

// ---- setup ----

function setupChanged() {
  const game = GAMES[$("game").value];
  $("human-label").textContent = game.seatsMove ? "You play as" : "You sit at";
  const players = $("players");
  const keep = Number(players.value) || 4;
  players.innerHTML = game.players.map((n) => `<option>${n}</option>`).join("");
  players.value = game.players.includes(keep) ? keep : game.players[1] || game.players[0];
  seatsChanged();
  $("rules-label").hidden = $("game").value !== "daifugo";
}

// What the setup calls a place at the table: a seat, or a player where seats move.
const placeNoun = () => (GAMES[$("game").value].seatsMove ? "player" : "seat");

function seatsChanged() {
  const n = Number($("players").value);
  const human = $("human-seat");
  const keep = human.value;
  human.innerHTML = `<option value="">nobody (watch)</option>` +
    Array.from({ length: n }, (_, i) => `<option value="${i}">${placeNoun()} ${i}</option>`).join("");
  human.value = keep !== "" && Number(keep) < n ? keep : "0";
  levelsChanged();
}

function levelsChanged() {
  const n = Number($("players").value);
  const human = $("human-seat").value === "" ? null : Number($("human-seat").value);
  const box = $("levels");
  const old = Array.from(box.querySelectorAll("select")).map((s) => s.value);
  const oldStrengths = Array.from(box.querySelectorAll("input.strength")).map((s) => s.value);
  box.innerHTML = "";
  let bot = 0;
  for (let seat = 0; seat < n; seat++) {
    if (seat === human) continue;
    const label = document.createElement("label");
    label.textContent = `${capital(placeNoun())} ${seat} `;
    const select = document.createElement("select");
    select.className = "level";
    select.innerHTML = LEVELS.map((l) => `<option>${l}</option>`).join("");
    select.value = old[bot] || "hard";
    label.appendChild(select);
    // A strength on the game's ladder rating scale (random = 0), when set, replaces the
    // level: the bot is the server's calibrated setting nearest it.
    const strength = document.createElement("input");
    strength.type = "number";
    strength.min = "0";
    strength.step = "1";
    strength.className = "strength";
    strength.placeholder = "strength";
    strength.title = "a rating on the game's ladder (random = 0); empty: the level";
    strength.value = oldStrengths[bot] || "";
    label.appendChild(strength);
    box.appendChild(label);
    bot += 1;
  }
}

async function newTable() {
  const human = $("human-seat").value;
  const request = {
    game: $("game").value,
    players: Number($("players").value),
    levels: Array.from(document.querySelectorAll("#levels label")).map((label) => {
      const strength = label.querySelector("input.strength").value;
      return strength === "" ? label.querySelector("select").value : Number(strength);
    }),
    seed: Number($("seed").value),
    rounds: Number($("rounds").value),
  };
  if (human !== "") request.human_seat = Number(human);
  if (request.game === "daifugo") request.rules = $("rules").value;
  busy = true;
  try {
    const created = await api("POST", "/api/tables", request);
    selected = [];
    auto = created.human_seat !== null;
    location.hash = `table=${created.id}`;
    $("setup-box").open = false;
    say("");
    show(created);
  } catch (e) {
    say(e.message);
  } finally {
    busy = false;
    render();
  }
}

// ---- the table ----

function show(next) {
  const movedOn = !state || state.id !== next.id || state.moves.length !== next.moves.length;
  if (state && state.id !== next.id) {
    $("explanation").textContent = "Pick a bot's move in the log to see the candidates it scored.";
    $("explanation").classList.remove("error");
  }
  if (!state || state.id !== next.id) {
    reviews = new Map();
    reviewDeal = null;
  }
  state = next;
  if (movedOn) selected = [];
  if (hint && hint.moves !== state.moves.length) hint = null;
  // A deal just over in which the human decided: its review shows.
  const done = state.reviewable || [];
  const latest = done[done.length - 1];
  if (latest !== undefined && !reviews.has(latest)) loadReview(latest);
  render();
  schedule();
}

function schedule() {
  clearTimeout(timer);
  if (!state) return;
  if (state.status === "deciding") {
    timer = setTimeout(refresh, 300);
  } else if (auto && state.status === "bot_turn") {
    timer = setTimeout(step, DELAYS_MS[Number($("speed").value)]);
  }
}

async function refresh() {
  if (!state) return;
  try { show(await api("GET", `/api/tables/${state.id}`)); } catch (e) { say(e.message); }
}

async function step() {
  if (!state || busy || state.status !== "bot_turn") return;
  busy = true;
  try { show(await api("POST", `/api/tables/${state.id}/step`)); } catch (e) { say(e.message); auto = false; }
  finally { busy = false; render(); schedule(); }
}

async function act(decision) {
  if (!state || busy || state.status !== "your_turn") return;
  busy = true;
  try {
    show(await api("POST", `/api/tables/${state.id}/actions`, { decision }));
    say("");
  } catch (e) {
    say(e.message);
  } finally { busy = false; render(); schedule(); }
}

// Counts of each card kind.
function tally(cards) {
  const m = new Map();
  for (const c of cards) m.set(c.kind, (m.get(c.kind) || 0) + 1);
  return m;
}
function within(small, big) {
  for (const [k, n] of small) if ((big.get(k) || 0) < n) return false;
  return true;
}
function sameCards(a, b) { return a.length === b.length && within(tally(a), tally(b)); }

// The hand the page shows: the human's own part, which the table updates after each
// deal and every action (whoever acted), less anything they played since.
function shownHand() {
  const game = GAMES[state.game];
  if (state.human_seat === null) {
    const v = state.view && game.view(state.view);
    return { cards: v ? game.hand(v) : [], owner: state.to_act, stale: false };
  }
  const [source, since] = state.your_hand
    ? [state.your_hand, state.your_hand_moves] : [state.your_view, state.your_view_moves];
  const mine = source && game.view(source);
  if (!mine) return { cards: [], owner: state.human_seat, stale: true };
  const now = state.view && game.view(state.view);
  const stale = !!now && game.deal(now) > game.deal(mine);
  let cards = game.hand(mine);
  for (const m of state.moves.slice(since)) {
    if (m.player !== state.human_seat) continue;
    const played = game.cards(m.decision) || [];
    for (const p of played) {
      const i = cards.findIndex((c) => c.kind === p.kind);
      if (i >= 0) cards.splice(i, 1);
    }
  }
  return { cards, owner: state.human_seat, stale };
}

function cardElement(card, tag) {
  const el = document.createElement(tag);
  el.className = `card ${card.cls}`;
  el.textContent = card.label;
  el.dataset.kind = card.kind;
  return el;
}

function render() {
  const board = $("board");
  if (!state) { board.hidden = true; $("intro").hidden = false; return; }
  board.hidden = false;
  $("intro").hidden = true;
  const game = GAMES[state.game];
  const view = state.view && game.view(state.view);
  const watching = state.human_seat === null;
  $("table-info").textContent =
    `${game.name} · table ${state.id} (#table=${state.id}) · seed ${state.seed}` +
    (state.rules ? ` · ${state.rules} rules` : "") + ` · ${state.units} ${state.game === "lexio" ? "round" : state.game === "daifugo" ? "game" : "hand"}(s) · `;
  const rules = document.createElement("a");
  rules.href = `/rules/${state.game}`;
  rules.target = "_blank";
  rules.textContent = "the rules";
  $("table-info").appendChild(rules);

  // Status.
  const status = $("status");
  status.dataset.status = state.status;
  const phase = view ? game.phase(view) : "";
  status.textContent = {
    your_turn: "Your turn",
    bot_turn: `${capital(who(state.to_act))} to act`,
    deciding: "A bot is thinking…",
    over: "The match is over",
    failed: `The match stopped: ${state.error}`,
  }[state.status] + (view ? ` · ${state.game === "lexio" ? "round" : state.game === "daifugo" ? "game" : "hand"} ${game.deal(view)}` : "") +
    (phase ? ` · ${phase}` : "");

  // Seats, and the play to beat, with the moves taken since the view (the last move
  // of a match has no view after it).
  const seats = view ? game.seats(view) : [];
  let play = view && game.table(view);
  for (const m of state.moves.slice(state.view_moves)) {
    const played = game.cards(m.decision);
    if (played && seats[m.seat] && m.decision[state.game].play) {
      seats[m.seat].count -= played.length;
      if (seats[m.seat].count === 0) seats[m.seat].finished = true;
      play = { owner: m.seat, cards: played };
    }
  }
  $("seats").innerHTML = "";
  state.seating.forEach((player, i) => {
    const s = seats[i] || {};
    const you = player === state.human_seat;
    const el = document.createElement("div");
    el.className = "seat" + (player === state.to_act ? " to-act" : "") + (you ? " human" : "");
    el.dataset.seat = i;
    el.dataset.player = player;
    const name = you ? "You" : capital(who(player, false));
    const where = game.seatsMove ? `seat ${i}${you ? "" : ` · ${state.lineup[player]}`}`
      : (you ? "" : state.lineup[player]);
    const bits = [`<b>${name}</b>`];
    if (where) bits.push(`<span class="who">${where}</span>`);
    bits.push(`<span class="count">${s.count ?? "?"} ${game.card}${s.count === 1 ? "" : "s"}</span>`);
    if (s.title) bits.push(`<span class="title">${s.title}</span>`);
    // Once the match is over the last view predates the final settlement: the
    // standings give the final scores instead.
    if (s.score !== undefined && !state.totals) bits.push(`<span class="score">${s.score} pts</span>`);
    if (s.finished) bits.push(`<span class="flag">out</span>`);
    else if (s.passed) bits.push(`<span class="flag">passed</span>`);
    el.innerHTML = bits.join(" ");
    $("seats").appendChild(el);
  });

  // The play to beat.
  const tableEl = $("table-play");
  tableEl.innerHTML = "";
  if (play) {
    const label = document.createElement("span");
    label.className = "owner";
    label.textContent = play.owner !== null && play.owner !== undefined
      ? `${capital(who(playerAt(play.owner)))} played` : "On the table";
    tableEl.appendChild(label);
    play.cards.forEach((c) => tableEl.appendChild(cardElement(c, "span")));
  } else {
    tableEl.textContent = state.status === "over" ? "" : "The table is empty: a new lead.";
  }

  renderHand(game, watching);
  renderHint(game);
  renderReview();
  renderLog(game);
  renderStandings(game, seats);

  // Controls.
  $("step").disabled = busy || auto || state.status !== "bot_turn";
  $("autoplay").textContent = auto ? "Pause the bots" : "Run the bots";
  $("autoplay").disabled = state.status === "over" || state.status === "failed";
}

function renderHand(game, watching) {
  const { cards, owner, stale } = shownHand();
  const yourTurn = state.status === "your_turn" && !busy;
  $("hand-area").querySelector("h2").textContent = watching
    ? (owner !== null && owner !== undefined ? `${capital(who(owner, false))}'s hand` : "Hand")
    : (yourTurn || state.status === "over" || state.status === "failed"
      ? "Your hand" : "Your hand (waiting for your turn)");
  $("actions").hidden = watching;
  const legal = yourTurn ? state.legal : [];
  const withCards = legal.filter((d) => game.cards(d) !== null).map((d) => ({ d, cards: game.cards(d) }));
  const others = legal.filter((d) => game.cards(d) === null);
  selected = selected.filter((i) => i < cards.length);
  const chosen = selected.map((i) => cards[i]);

  const hand = $("hand");
  hand.innerHTML = "";
  hand.classList.toggle("readonly", watching);
  hand.classList.toggle("waiting", !watching && !yourTurn);
  if (stale) {
    hand.textContent = "A new deal: your cards are on their way.";
  }
  if (!stale) {
    cards.forEach((card, i) => {
      const el = cardElement(card, "button");
      el.type = "button";
      const isSelected = selected.includes(i);
      if (isSelected) el.classList.add("selected");
      el.setAttribute("aria-pressed", String(isSelected));
      // A card can be picked only if some legal action holds it with the cards picked.
      const wanted = tally([...chosen, card]);
      el.disabled = !watching && !isSelected &&
        !withCards.some((x) => within(wanted, tally(x.cards)));
      if (watching) el.disabled = true;
      el.addEventListener("click", () => {
        selected = isSelected ? selected.filter((j) => j !== i) : [...selected, i];
        render();
      });
      hand.appendChild(el);
    });
  }

  const matches = withCards.filter((x) => sameCards(x.cards, chosen));
  const playButton = $("play");
  playButton.disabled = matches.length !== 1;
  playButton.onclick = () => { if (matches.length === 1) act(matches[0].d); };
  const pass = others.find((d) => game.label(d) === "pass");
  $("pass").disabled = !pass;
  $("pass").onclick = () => { if (pass) act(pass); };
  $("clear").disabled = selected.length === 0;
  const choices = $("choices");
  choices.innerHTML = "";
  // Other actions: choices without cards, and the ways to play the same cards.
  const extra = others.filter((d) => d !== pass).concat(matches.length > 1 ? matches.map((x) => x.d) : []);
  for (const d of extra) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "choice";
    b.textContent = game.label(d);
    b.addEventListener("click", () => act(d));
    choices.appendChild(b);
  }
}

function renderLog(game) {
  const log = $("log");
  const atBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 30;
  log.innerHTML = "";
  for (const m of state.moves) {
    const li = document.createElement("li");
    li.value = m.index + 1;
    li.innerHTML = `<span class="who">${capital(who(m.player))}</span>: `;
    const what = document.createElement("span");
    what.textContent = game.label(m.decision);
    li.appendChild(what);
    if (m.level !== "human") {
      const why = document.createElement("button");
      why.type = "button";
      why.className = "why";
      why.textContent = "why?";
      why.addEventListener("click", () => explain(m.index));
      li.appendChild(why);
    }
    log.appendChild(li);
  }
  if (atBottom) log.scrollTop = log.scrollHeight;
}

// What an explanation's columns and terms mean, by level (the proto's
// ExplainedCandidate says the same). EXPERT's outcome is the game's primary unit:
// chips per round in Lexio, the finishing place (1 = first out) elsewhere.
const EXPERT_UNIT = {
  lexio: ["chips won per round", "the mean chips"],
  dalmuti: ["minus the mean finishing place (1 = first out)", "the mean finishing place"],
  daifugo: ["minus the mean finishing place (1 = first out)", "the mean finishing place"],
};
const TERM_DOCS = { lexio: "docs/lexio-hard.md", dalmuti: "docs/dalmuti-hard.md", daifugo: "docs/daifugo-hard.md" };

// A number from proto3 JSON: doubles that are not finite come as strings ("NaN").
function shown(value, digits) {
  const n = Number(value);
  return Number.isFinite(n) ? n.toFixed(digits) : "–";
}

function legend(e) {
  const searched = e.level === "expert" && e.explanation.some((c) => (c.terms || []).some((t) => t.name === "playouts"));
  const rows = [];
  if (searched) {
    const [unit, mean] = EXPERT_UNIT[state.game];
    rows.push(["score", `the mean outcome of the candidate's playouts, higher is better: ${unit}`]);
    rows.push(["share", "the share of the search's playouts spent on the candidate"]);
    rows.push(["playouts", "how many playouts the candidate got"]);
    rows.push(["mean", `${mean} over its playouts (the score before the sign is set)`]);
    rows.push(["ci95_low, ci95_high", "the 95% interval of that mean (– with too few playouts)"]);
    rows.push(["in_race", "1 if the candidate was still a contender when the search stopped; contenders are listed first"]);
    const anchor = e.explanation.flatMap((c) => c.terms || []).find((t) => t.name === "anchor");
    if (anchor) {
      rows.push(["anchor", `HARD's choice: EXPERT plays it unless another candidate's playouts beat it by more than ${shown(anchor.value, 0)} standard errors, so a candidate listed above it may not be played`]);
    }
  } else {
    rows.push(["score", `the sum of the terms, higher is better (the terms: ${TERM_DOCS[state.game]})`]);
    rows.push(["chance", "the chance the bot's seeded softmax picks the candidate (0 when it is too far below the best)"]);
    rows.push(["terms", "the weighted parts of the score by name; they add up to the score"]);
  }
  rows.push(["forced, mate, fallback", "a choice listed alone: the only legal action, a forced win EXPERT found before searching (plays that each win their trick whatever the hidden cards, the last one emptying the hand), or an answer given before the search had one (the best already computed)"]);
  const dl = document.createElement("dl");
  dl.className = "legend";
  for (const [term, text] of rows) {
    const dt = document.createElement("dt");
    dt.textContent = term;
    const dd = document.createElement("dd");
    dd.textContent = text;
    dl.append(dt, dd);
  }
  return { dl, searched };
}

async function explain(index) {
  const box = $("explanation");
  box.classList.remove("error");
  try {
    const e = await api("GET", `/api/tables/${state.id}/moves/${index}`);
    const game = GAMES[state.game];
    const head = `<p>Move ${index + 1}: ${who(e.player)} played <b></b>.</p>`;
    box.innerHTML = head;
    box.querySelector("b").textContent = game.label(e.decision);
    if (e.error) box.insertAdjacentHTML("beforeend", `<p class="error"></p>`);
    if (e.error) box.querySelector(".error").textContent = `The easy bot stood in: ${e.error}`;
    if (!e.explanation.length) {
      box.insertAdjacentHTML("beforeend", "<p>The easy level scores no candidates: it plays a fixed rule.</p>");
      return;
    }
    const { dl, searched } = legend(e);
    const table = document.createElement("table");
    table.innerHTML = `<thead><tr><th>candidate</th><th>score</th><th>${searched ? "share" : "chance"}</th><th>terms</th></tr></thead>`;
    const body = document.createElement("tbody");
    for (const c of e.explanation) {
      const tr = document.createElement("tr");
      if (c.chosen) tr.className = "chosen";
      const cells = [game.label(c.decision), shown(c.score, 3), `${shown(Number(c.probability) * 100, 0)}%`,
        (c.terms || []).map((t) => `${t.name} ${shown(t.value, 2)}`).join(", ")];
      for (const text of cells) {
        const td = document.createElement("td");
        td.textContent = text;
        tr.appendChild(td);
      }
      body.appendChild(tr);
    }
    table.appendChild(body);
    box.appendChild(table);
    box.appendChild(dl);
  } catch (err) {
    box.textContent = err.message;
    box.classList.add("error");
    throw err;
  }
}

function renderStandings(game, seats) {
  const box = $("standings");
  const rows = [];
  if (state.totals) {
    // One row per player, one column per metric: long lineups stay narrow.
    const t = state.totals;
    rows.push(`<tr><th></th>${t.metrics.map((name) => `<th>${name.replace(/_/g, " ")}</th>`).join("")}</tr>`);
    t.seats.forEach((s, p) => {
      rows.push(`<tr${p === state.human_seat ? ` class="you"` : ""}><td class="name">${who(p, false)}</td>${t.metrics.map((_, k) =>
        `<td>${(s.sums[k] / Math.max(1, s.units)).toFixed(2)}</td>`).join("")}</tr>`);
    });
    box.innerHTML = `<p>Final, per ${state.game === "lexio" ? "round" : state.game === "daifugo" ? "game" : "hand"} (${t.higher_is_better ? "higher" : "lower"} is better for the first column):</p><table>${rows.join("")}</table>`;
  } else if (seats.some((s) => s.score !== undefined || s.title)) {
    box.innerHTML = `<table>${seats.map((s, i) =>
      `<tr><td>${who(playerAt(i), false)}</td><td>${s.score !== undefined ? `${s.score} pts` : ""}</td><td>${s.title || ""}</td></tr>`).join("")}</table>`;
  } else {
    box.textContent = "Scores show after the first deal.";
  }
}

// ---- hints and reviews ----

// What an analysis' numbers are, by unit (the service's AnalyzePlayResponse.unit).
const UNITS = {
  chips: { outcome: "chips won in the round", loss: "chips", better: "higher is better" },
  place: { outcome: "finishing place (1 = first out)", loss: "places", better: "lower is better" },
};
// The review categories' losses, by game (docs/api.md, AnalyzePlay).
const THRESHOLDS = { lexio: [0.25, 1, 3], dalmuti: [0.05, 0.15, 0.4], daifugo: [0.05, 0.15, 0.4] };
const category = (c) => (c || "").replace(/^REVIEW_CATEGORY_/, "").toLowerCase();
const dealNoun = () => (state.game === "lexio" ? "round" : state.game === "daifugo" ? "game" : "hand");

async function askHint() {
  if (!state || state.status !== "your_turn" || hintBusy) return;
  const moves = state.moves.length;
  const id = state.id;
  hintBusy = true;
  hint = { moves, loading: true };
  render();
  try {
    const data = await api("POST", `/api/tables/${id}/hint`);
    if (state.id === id && state.moves.length === moves) hint = { moves, data };
  } catch (e) {
    if (state.id === id && state.moves.length === moves) hint = { moves, error: e.message };
  } finally {
    hintBusy = false;
    render();
  }
}

// Picks a suggestion's cards in the hand (or points at its button): nothing is played.
function pickSuggestion(game, decision, index) {
  hint.picked = index;
  const wanted = game.cards(decision);
  if (wanted) {
    const hand = shownHand().cards;
    const picked = [];
    for (const card of wanted) {
      const i = hand.findIndex((c, j) => c.kind === card.kind && !picked.includes(j));
      if (i >= 0) picked.push(i);
    }
    selected = picked;
  } else {
    selected = [];
  }
  render();
}

function renderHint(game) {
  const box = $("hint-box");
  const yourTurn = state.status === "your_turn";
  $("hint").disabled = !yourTurn || busy || hintBusy;
  $("hint").textContent = hintBusy ? "Thinking…" : "Hint";
  for (const b of document.querySelectorAll("#actions .suggested")) b.classList.remove("suggested");
  if (!hint || !yourTurn) { box.hidden = true; box.innerHTML = ""; return; }
  box.hidden = false;
  box.classList.remove("error");
  if (hint.loading) { box.textContent = "The search is weighing your choices…"; return; }
  if (hint.error) { box.textContent = hint.error; box.classList.add("error"); return; }
  const data = hint.data;
  if (!data.analyzed) { box.textContent = `No hint: ${data.reason.replace(/^no hint in this phase: /, "")}.`; return; }
  const unit = UNITS[data.unit] || { outcome: data.unit, better: data.higher_is_better ? "higher is better" : "lower is better" };
  box.innerHTML = `<p>Hint: the best choice, marked (the expert bot's), ${data.decisions.length > 1 ? "then the next " : ""}by the expected <b></b> (<i></i>), from ${data.search_iterations} playouts. Click one to pick it; nothing is played until you play it.</p>`;
  box.querySelector("b").textContent = unit.outcome;
  box.querySelector("i").textContent = unit.better;
  const table = document.createElement("table");
  table.className = "suggestions";
  table.innerHTML = "<thead><tr><th>choice</th><th>expected</th><th>95% interval</th><th></th></tr></thead>";
  const body = document.createElement("tbody");
  data.decisions.forEach((d, i) => {
    const tr = document.createElement("tr");
    tr.className = "suggestion" + (d.best ? " best" : "") + (hint.picked === i ? " picked" : "");
    tr.tabIndex = 0;
    tr.title = "Pick it (it is not played)";
    const cells = [game.label(d.decision), shown(d.expected, 2), `${shown(d.ci95_low, 2)} to ${shown(d.ci95_high, 2)}`, d.best ? "best" : ""];
    cells.forEach((text, k) => {
      const td = document.createElement("td");
      td.textContent = text;
      if (k === 3 && d.best) td.className = "badge-cell";
      tr.appendChild(td);
    });
    const pick = () => pickSuggestion(game, d.decision, i);
    tr.addEventListener("click", pick);
    tr.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); pick(); } });
    body.appendChild(tr);
  });
  table.appendChild(body);
  box.appendChild(table);
  // A picked choice without cards: its button is pointed at.
  const picked = data.decisions[hint.picked];
  if (picked && game.cards(picked.decision) === null) {
    const label = game.label(picked.decision);
    for (const b of document.querySelectorAll("#pass, #choices button")) {
      if (b.textContent === label || (b.id === "pass" && label === "pass")) b.classList.add("suggested");
    }
  }
}

async function loadReview(deal) {
  const id = state.id;
  reviews.set(deal, { loading: true });
  reviewDeal = deal;
  renderReview();
  try {
    const data = await api("GET", `/api/tables/${id}/review/${deal}`);
    if (state.id === id) reviews.set(deal, data);
  } catch (e) {
    if (state.id === id) reviews.set(deal, { error: e.message });
  }
  if (state.id === id) renderReview();
}

function renderReview() {
  const panel = $("review-panel");
  const done = (state && state.reviewable) || [];
  if (!done.length || reviewDeal === null) { panel.hidden = true; return; }
  panel.hidden = false;
  const game = GAMES[state.game];
  const deals = $("review-deals");
  deals.innerHTML = "";
  if (done.length > 1) {
    for (const deal of done) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "deal" + (deal === reviewDeal ? " current" : "");
      b.textContent = `${dealNoun()} ${deal}`;
      b.addEventListener("click", () => {
        reviewDeal = deal;
        if (!reviews.has(deal) || reviews.get(deal).error) loadReview(deal); else renderReview();
      });
      deals.appendChild(b);
    }
  }
  const box = $("review");
  box.classList.remove("error");
  const data = reviews.get(reviewDeal);
  if (!data || data.loading) { box.textContent = `Reviewing your decisions in ${dealNoun()} ${reviewDeal}…`; return; }
  if (data.error) { box.textContent = data.error; box.classList.add("error"); return; }
  const unit = UNITS[data.unit] || { loss: data.unit };
  const counts = {};
  for (const r of data.decisions) {
    const c = r.review ? category(r.review.category) : r.forced ? "forced" : "not analyzed";
    counts[c] = (counts[c] || 0) + 1;
  }
  const order = ["best", "good", "inaccuracy", "mistake", "blunder", "forced", "not analyzed"];
  const summary = order.filter((c) => counts[c]).map((c) => `${counts[c]} ${c}`).join(", ");
  box.innerHTML = `<p>Your ${data.decisions.length} decision(s) in ${dealNoun()} ${data.deal}${summary ? `: ${summary}` : ""}.</p>`;
  const table = document.createElement("table");
  table.innerHTML = `<thead><tr><th>move</th><th>you played</th><th>verdict</th><th>loss (${unit.loss})</th><th>best</th></tr></thead>`;
  const body = document.createElement("tbody");
  for (const r of data.decisions) {
    const tr = document.createElement("tr");
    const c = r.review ? category(r.review.category) : r.forced ? "forced" : "none";
    tr.className = `review-row cat-${c.replace(/ /g, "-")}`;
    const best = r.best && r.best.decision ? game.label(r.best.decision) : "";
    const verdict = r.review ? c : r.forced ? "forced" : "not analyzed";
    const cells = [String(r.index + 1), game.label(r.decision), verdict,
      r.review ? shown(r.review.loss, 2) : "", r.review && c !== "best" ? best : ""];
    cells.forEach((text, k) => {
      const td = document.createElement("td");
      if (k === 2) {
        const badge = document.createElement("span");
        badge.className = `category cat-${c.replace(/ /g, "-")}`;
        badge.textContent = text;
        if (r.reason) badge.title = r.reason;
        td.appendChild(badge);
      } else {
        td.textContent = text;
      }
      tr.appendChild(td);
    });
    body.appendChild(tr);
  }
  table.appendChild(body);
  box.appendChild(table);
  const [good, inaccuracy, mistake] = THRESHOLDS[state.game];
  const dl = document.createElement("dl");
  dl.className = "legend";
  for (const [term, text] of [
    ["verdict", `best: the choice the search rates best; otherwise by the loss: good below ${good}, an inaccuracy below ${inaccuracy}, a mistake below ${mistake}, a blunder from ${mistake} ${unit.loss} on`],
    ["loss", `what your choice gives up against the best on the same deals, in ${unit.loss} (positive is worse)`],
    ["forced, not analyzed", "the only legal action; a choice the search does not play (a Daifugo exchange, a tax return, a revolution choice)"],
  ]) {
    const dt = document.createElement("dt");
    dt.textContent = term;
    const dd = document.createElement("dd");
    dd.textContent = text;
    dl.append(dt, dd);
  }
  box.appendChild(dl);
}

// ---- wiring ----

$("game").addEventListener("change", setupChanged);
$("players").addEventListener("change", seatsChanged);
$("human-seat").addEventListener("change", levelsChanged);
$("start").addEventListener("click", newTable);
$("step").addEventListener("click", step);
$("clear").addEventListener("click", () => { selected = []; render(); });
$("hint").addEventListener("click", askHint);
$("autoplay").addEventListener("click", () => { auto = !auto; render(); schedule(); });
$("speed").addEventListener("input", schedule);
$("seed").value = Math.floor(Math.random() * 1e9);
setupChanged();

// A table named in the address (#table=ID) is shown: after a reload, or when the
// address changes to another table.
function showNamed() {
  const named = /table=(\d+)/.exec(location.hash);
  if (!named || (state && String(state.id) === named[1])) return;
  $("setup-box").open = false;
  auto = false;
  selected = [];
  say("");
  api("GET", `/api/tables/${named[1]}`).then(show).catch((e) => say(e.message));
}
window.addEventListener("hashchange", showNamed);
showNamed();
