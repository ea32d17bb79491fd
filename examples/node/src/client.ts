// A game backend in TypeScript (Node.js) calling climbot: for each game (Lexio, The
// Great Dalmuti, Daifugo) it builds a view, asks ListLegalPlays for every legal
// decision, asks SelectPlay for the bot's decision, checks that the decision is one of
// the legal ones, and replays it with the echoed seed. It asks AnalyzePlay for a hint for
// a human in that seat (the best three decisions, and a review of one the player
// considers). Then it sends a broken view and checks that it is refused with
// INVALID_ARGUMENT naming the field.
//
//   npm run build && node dist/client.js 127.0.0.1:50051
//   node dist/client.js --ca ca.crt 127.0.0.1:50051                                   # TLS
//   node dist/client.js --ca ca.crt --cert client.crt --key client.key 127.0.0.1:50051 # mutual TLS
//
// Plaintext by default; --ca calls over TLS, trusting the server's certificate when that
// CA signed it; --cert and --key add a client certificate for mutual TLS.
//
// The code in src/gen/ is generated from ../../proto (see README.md).
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { create, equals, toJsonString } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient, type Client } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import {
  AnalyzedDecisionSchema,
  BotService,
  DecisionSchema,
  Difficulty,
  GameViewSchema,
  ReviewCategory,
  type Decision,
  type GameView,
  type ListLegalPlaysResponse,
} from "./gen/climbot/v1/bot_pb.js";
import { DaifugoPhase, DaifugoRulePreset, DaifugoSuit, DaifugoTitle } from "./gen/climbot/v1/daifugo_pb.js";
import { DalmutiPhase, DalmutiTitle } from "./gen/climbot/v1/dalmuti_pb.js";
import { LexioSuit } from "./gen/climbot/v1/lexio_pb.js";

type Bot = Client<typeof BotService>;

const tile = (number: number, suit: LexioSuit) => ({ number, suit });

/** Four players; seat 1 led the star 3; the bot, seat 2, must beat it or pass. */
function lexioView(): GameView {
  const { CLOUD, STAR, MOON, SUN } = LexioSuit;
  const star3 = tile(3, STAR);
  return create(GameViewSchema, {
    game: {
      case: "lexio",
      value: {
        playerCount: 4,
        seat: 2,
        hand: [
          tile(3, MOON), tile(4, CLOUD), tile(4, SUN), tile(5, STAR), tile(6, MOON),
          tile(7, SUN), tile(9, CLOUD), tile(9, STAR), tile(9, MOON), tile(11, CLOUD),
          tile(12, SUN), tile(1, STAR), tile(2, CLOUD),
        ],
        table: { owner: 1, tiles: [star3] },
        seats: [13, 12, 13, 13].map((tileCount) => ({ tileCount })),
        played: [star3],
        log: [{ seat: 1, tiles: [star3] }],
        round: 1,
        scores: [0n, 0n, 0n, 0n],
      },
    },
  });
}

/** Five players, first hand; the Greater Dalmuti (seat 0) leads with 16 cards. */
function dalmutiView(): GameView {
  const titles = [
    DalmutiTitle.GREATER_DALMUTI,
    DalmutiTitle.LESSER_DALMUTI,
    DalmutiTitle.MERCHANT,
    DalmutiTitle.LESSER_PEON,
    DalmutiTitle.GREATER_PEON,
  ];
  return create(GameViewSchema, {
    game: {
      case: "dalmuti",
      value: {
        seat: 0,
        phase: DalmutiPhase.PLAY,
        // One count per rank 1..12, then the Jesters.
        hand: { counts: [1, 2, 3, 4, 5, 1, 0, 0, 0, 0, 0, 0, 0] },
        seats: titles.map((title) => ({ cardCount: 16, title })),
        handNumber: 1,
        handsLeft: 19,
      },
    },
  });
}

/** Four players, game 1 under the house rules; seat 0 holds the diamond 3 and leads. */
function daifugoView(): GameView {
  const { SPADES, HEARTS, DIAMONDS, CLUBS } = DaifugoSuit;
  const card = (rank: number, suit: DaifugoSuit) => ({ rank, suit });
  return create(GameViewSchema, {
    game: {
      case: "daifugo",
      value: {
        rules: { preset: DaifugoRulePreset.HOUSE },
        seat: 0,
        game: 1,
        phase: DaifugoPhase.PLAY,
        hand: [
          card(3, DIAMONDS), card(4, SPADES), card(5, HEARTS), card(5, CLUBS),
          card(7, DIAMONDS), card(8, SPADES), card(9, HEARTS), card(10, SPADES),
          card(11, DIAMONDS), card(12, CLUBS), card(13, HEARTS), card(14, SPADES),
          card(15, DIAMONDS), { joker: 1 },
        ],
        seats: [14, 13, 13, 13].map((cardCount) => ({ cardCount, title: DaifugoTitle.HEIMIN })),
      },
    },
  });
}

/** The list ListLegalPlays answers, as Decision messages. */
function legalDecisions(response: ListLegalPlaysResponse): Decision[] {
  const game = response.game;
  switch (game.case) {
    case "lexio":
      return game.value.decisions.map((value) => create(DecisionSchema, { game: { case: "lexio", value } }));
    case "dalmuti":
      return game.value.decisions.map((value) => create(DecisionSchema, { game: { case: "dalmuti", value } }));
    case "daifugo":
      return game.value.decisions.map((value) => create(DecisionSchema, { game: { case: "daifugo", value } }));
    default:
      return [];
  }
}

async function play(bot: Bot, name: string, view: GameView, difficulty: Difficulty): Promise<void> {
  const options = { timeoutMs: 2000 };
  const decisions = legalDecisions(await bot.listLegalPlays({ view }, options));
  if (decisions.length === 0) throw new Error(`${name}: no legal decision listed`);
  const reply = await bot.selectPlay({ view, difficulty, budgetMs: 200 }, options);
  const decision = reply.decision;
  if (!decision || !decisions.some((d) => equals(DecisionSchema, d, decision))) {
    throw new Error(`${name}: the decision is not among the ${decisions.length} legal ones`);
  }
  // The same view, level and seed give the same decision.
  const again = await bot.selectPlay({ view, difficulty, budgetMs: 200, seed: reply.seed }, options);
  if (!again.decision || !equals(DecisionSchema, again.decision, decision)) {
    throw new Error(`${name}: the replay with seed ${reply.seed} answered another decision`);
  }
  console.log(
    `${name}: ${decisions.length} legal decisions; ${Difficulty[difficulty]} plays ` +
      `${toJsonString(DecisionSchema, decision)} (seed ${reply.seed}, ${reply.computeMicros} us)`,
  );
}

/** A decision at a strength on the game's ladder rating scale (Elo, random = 0) instead
 * of a level: the server plays its calibrated setting nearest the target and answers
 * with that setting's rating and the level it is built from. A strength sent with a
 * level is refused naming `strength`. */
async function withStrength(bot: Bot, name: string, view: GameView): Promise<void> {
  const options = { timeoutMs: 2000 };
  const decisions = legalDecisions(await bot.listLegalPlays({ view }, options));
  if (decisions.length === 0) throw new Error(`${name}: no legal decision listed`);
  const strength = 900;
  const reply = await bot.selectPlay({ view, strength, maxIterations: 200 }, options);
  const decision = reply.decision;
  if (!decision || !decisions.some((d) => equals(DecisionSchema, d, decision))) {
    throw new Error(`${name}: the decision is not among the ${decisions.length} legal ones`);
  }
  if (reply.strength === undefined || reply.difficulty === Difficulty.UNSPECIFIED) {
    throw new Error(`${name}: the answer says no strength or no level`);
  }
  const again = await bot.selectPlay({ view, strength, maxIterations: 200, seed: reply.seed }, options);
  if (!again.decision || !equals(DecisionSchema, again.decision, decision)) {
    throw new Error(`${name}: the replay at strength ${strength} with seed ${reply.seed} differs`);
  }
  try {
    await bot.selectPlay({ view, strength, difficulty: Difficulty.HARD }, options);
  } catch (error) {
    const e = ConnectError.from(error);
    if (e.code !== Code.InvalidArgument || !e.rawMessage.startsWith("strength: ")) {
      throw new Error(`${name}: a strength with a level: got ${e.message}`);
    }
    console.log(
      `${name}: strength ${strength} plays the setting rated ${reply.strength} (${Difficulty[reply.difficulty]})`,
    );
    return;
  }
  throw new Error(`${name}: a strength with a level was accepted`);
}

/** A hint for a human in this seat: the best three decisions with the outcome each is
 * expected to give, and the review of the one the player considers (here the last legal
 * decision). A fixed maxIterations makes it replayable with the echoed seed. */
async function hint(bot: Bot, name: string, view: GameView): Promise<void> {
  const options = { timeoutMs: 5000 };
  const decisions = legalDecisions(await bot.listLegalPlays({ view }, options));
  if (decisions.length === 0) throw new Error(`${name}: no legal decision listed`);
  const considered = decisions[decisions.length - 1];
  const request = { view, decision: considered, top: 3, budgetMs: 2000, maxIterations: 20 * decisions.length };
  const reply = await bot.analyzePlay(request, options);
  const best = reply.decisions[0];
  if (!best?.best || !best.decision) throw new Error(`${name}: the first decision listed is not the best`);
  for (const d of reply.decisions) {
    if (!d.decision || !decisions.some((l) => equals(DecisionSchema, l, d.decision!))) {
      throw new Error(`${name}: the hint lists a decision that is not legal`);
    }
  }
  const review = reply.review;
  if (!review?.decision || !equals(DecisionSchema, review.decision, considered)) {
    throw new Error(`${name}: the review is of another decision`);
  }
  const again = await bot.analyzePlay({ ...request, seed: reply.seed }, options);
  // The same seed and the same number of playouts give the same analysis. On a loaded
  // machine the budget can end one of the two before maxIterations; then they differ in
  // work, and only the work is compared.
  if (again.searchIterations !== reply.searchIterations) {
    console.log(
      `${name}: the budget ended a hint early (${reply.searchIterations} and ` +
        `${again.searchIterations} playouts); not compared`,
    );
  } else {
    const same =
      again.decisions.length === reply.decisions.length &&
      again.decisions.every((d, i) => equals(AnalyzedDecisionSchema, d, reply.decisions[i]));
    if (!same) throw new Error(`${name}: the replayed analysis with seed ${reply.seed} differs`);
  }
  const direction = reply.higherIsBetter ? "higher" : "lower";
  console.log(
    `${name}: hint ${toJsonString(DecisionSchema, best.decision)} expects ${best.expected.toFixed(2)} ` +
      `${reply.unit} (${direction} is better, 95% [${best.ci95Low.toFixed(2)}, ${best.ci95High.toFixed(2)}]); ` +
      `the considered decision is ${ReviewCategory[review.category]} (loses ${review.loss.toFixed(2)}); ` +
      `${reply.searchIterations} playouts`,
  );
}

async function refused(bot: Bot): Promise<void> {
  const view = lexioView();
  if (view.game.case === "lexio") view.game.value.hand[0].suit = LexioSuit.UNSPECIFIED;
  try {
    await bot.selectPlay({ view }, { timeoutMs: 2000 });
  } catch (error) {
    const e = ConnectError.from(error);
    if (e.code === Code.InvalidArgument && e.rawMessage.startsWith("view.lexio.hand[0].suit: ")) {
      console.log(`bad view refused: ${Code[e.code]}: ${e.rawMessage}`);
      return;
    }
    throw new Error(`a view without a suit: got ${e.message}`);
  }
  throw new Error("a view without a suit was accepted");
}

const usage = "usage: node dist/client.js [--ca FILE [--cert FILE --key FILE]] [ADDRESS]";

/** The command line: an address, and the TLS files (none: plaintext). */
function options(): { address: string; ca?: string; cert?: string; key?: string } {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      // Call over TLS, trusting the CA certificates in this PEM file.
      ca: { type: "string" },
      // Mutual TLS: the client certificate chain and its private key (PEM).
      cert: { type: "string" },
      key: { type: "string" },
    },
  });
  if ((values.cert === undefined) !== (values.key === undefined)) throw new Error("--cert and --key go together");
  if (values.cert !== undefined && values.ca === undefined) {
    throw new Error("--cert and --key need --ca (a client certificate is sent over TLS)");
  }
  if (positionals.length > 1) throw new Error(usage);
  return { address: positionals[0] ?? "127.0.0.1:50051", ...values };
}

/** A gRPC transport: h2c, or TLS trusting --ca (with --cert and --key: mutual TLS). */
function transport(o: ReturnType<typeof options>) {
  if (o.ca === undefined) return createGrpcTransport({ baseUrl: `http://${o.address}` });
  return createGrpcTransport({
    baseUrl: `https://${o.address}`,
    nodeOptions: {
      ca: readFileSync(o.ca),
      ...(o.cert !== undefined && o.key !== undefined
        ? { cert: readFileSync(o.cert), key: readFileSync(o.key) }
        : {}),
    },
  });
}

/** One call first, so that a server that cannot be reached (or whose TLS does not match
 * ours) is reported once, clearly, instead of as four failed checks. */
async function reachable(bot: Bot, o: ReturnType<typeof options>): Promise<boolean> {
  try {
    await bot.listLegalPlays({ view: lexioView() }, { timeoutMs: 5000 });
    return true;
  } catch (error) {
    const e = ConnectError.from(error);
    const how =
      o.ca === undefined
        ? "plaintext (no --ca)"
        : o.cert === undefined
          ? `TLS trusting ${o.ca}, without a client certificate`
          : `TLS trusting ${o.ca}, with the client certificate ${o.cert}`;
    console.error(`node: cannot call ${o.address} over ${how}: ${e.message}`);
    return false;
  }
}

async function main(): Promise<void> {
  let o: ReturnType<typeof options>;
  try {
    o = options();
  } catch (error) {
    console.error(`node: ${error instanceof Error ? error.message : error}\n${usage}`);
    process.exitCode = 2;
    return;
  }
  const bot = createClient(BotService, transport(o));
  if (!(await reachable(bot, o))) {
    process.exitCode = 2;
    return;
  }
  const checks: Array<[string, () => Promise<void>]> = [
    ["lexio", () => play(bot, "lexio", lexioView(), Difficulty.HARD)],
    ["dalmuti", () => play(bot, "dalmuti", dalmutiView(), Difficulty.HARD)],
    ["daifugo", () => play(bot, "daifugo", daifugoView(), Difficulty.HARD)],
    ["lexio strength", () => withStrength(bot, "lexio", lexioView())],
    ["dalmuti strength", () => withStrength(bot, "dalmuti", dalmutiView())],
    ["daifugo strength", () => withStrength(bot, "daifugo", daifugoView())],
    ["lexio hint", () => hint(bot, "lexio", lexioView())],
    ["dalmuti hint", () => hint(bot, "dalmuti", dalmutiView())],
    ["daifugo hint", () => hint(bot, "daifugo", daifugoView())],
    ["bad view", () => refused(bot)],
  ];
  let failed = 0;
  for (const [name, check] of checks) {
    try {
      await check();
    } catch (error) {
      console.error(`FAIL ${name}:`, error instanceof Error ? error.message : error);
      failed++;
    }
  }
  console.log(`node: ${checks.length - failed} passed, ${failed} failed`);
  process.exitCode = failed > 0 ? 1 : 0;
}

await main();
