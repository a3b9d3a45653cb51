// One gate for every update (issue 19 item 5): an update is parsed once where it enters, whether its
// sender may act is decided once, and handlers ("routes") only ever see what passed. A route added
// here has no access code of its own: strangers' updates of every kind, through every door the relay
// uses (claim, unclaimed, gathered commands, holding), never reach it; an allowed user's do. What
// those who may not act get (a refused tap, the setup /start) is decided by the gate alone. And no
// file in lib/ but the gate can decide access or make an `Acting` value.
import fs from "node:fs";
import path from "node:path";
import pino from "pino";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { Gate, type ActingText, type IntentOf, type PublicAnswers, type Route } from "../../lib/bridge/core/gate.ts";
import type { AccessPolicy } from "../../lib/telegram/access.ts";
import { parseUpdate, type Intent } from "../../lib/telegram/wire/updates.ts";
import { CHAT as CHAT_IN_RIG, OWNER as OWNER_IN_RIG, setup } from "../support/bridge-rig.ts";

const OWNER = 7;
const GROUP = -100;
const STRANGER = 666;

const silent = pino({ level: "silent" });

function tap(user: number, chat: number | undefined, data = "h1:ABCDEFGH:o:0:0"): unknown {
  const message = chat === undefined ? undefined : { message_id: 50, chat: { id: chat, type: chat < 0 ? "supergroup" : "private" } };
  return { update_id: 1, callback_query: { id: `tap-${user}-${chat}`, from: { id: user }, data, ...(message ? { message } : {}) } };
}

function message(user: number, chat: number, fields: Record<string, unknown>): unknown {
  return {
    update_id: 2,
    message: { message_id: 60, from: { id: user, first_name: "U" }, chat: { id: chat, type: chat < 0 ? "supergroup" : "private" }, ...fields },
  };
}

/** One update of every kind from a sender: a tap, a new command, typed text, a reply text, a voice note, a photo. */
function everyKind(user: number, chat: number): unknown[] {
  return [
    tap(user, chat),
    message(user, chat, { text: "/new a fresh session" }),
    message(user, chat, { text: "/status" }),
    message(user, chat, { text: "an answer" }),
    message(user, chat, { text: "a reply", reply_to_message: { message_id: 50 } }),
    message(user, chat, { voice: { file_id: "v1", duration: 3 } }),
    message(user, chat, { photo: [{ file_id: "p1" }], caption: "look" }),
  ];
}

interface Seen {
  door: string;
  intent: Intent;
}

/** A new handler for every kind, written as a new feature would be: it takes whatever it is given. */
function recordingRoute<I extends Intent>(seen: Seen[], claims: boolean): Route<I> {
  return {
    claim: (intent) => {
      seen.push({ door: "claim", intent });
      return claims ? async () => undefined : undefined;
    },
    unclaimed: async (intent) => void seen.push({ door: "unclaimed", intent }),
    gathers: (intent) => {
      seen.push({ door: "gathers", intent });
      return intent.kind === "command" && intent.name === "status";
    },
    partFor: async (intent) => {
      seen.push({ door: "partFor", intent });
      return { part: true };
    },
  };
}

interface Rig {
  gate: Gate;
  seen: Seen[];
  refused: string[];
  started: number[];
}

function rig(access: AccessPolicy, options: { claims?: boolean; owns?: boolean } = {}): Rig {
  const seen: Seen[] = [];
  const refused: string[] = [];
  const started: number[] = [];
  const answers: PublicAnswers = {
    ownsTap: () => options.owns ?? false,
    refuseTap: async (tap) => void refused.push(tap.id),
    start: async (command) => void started.push(command.from.chatId),
  };
  const gate = new Gate(access, answers, silent);
  for (const kind of ["callback", "command", "text", "attachment"] as const) gate.route(kind, recordingRoute(seen, options.claims ?? false));
  return { gate, seen, refused, started };
}

/** Every door the relay (relay/update-handler.ts) opens for an update. */
async function throughEveryDoor(gate: Gate, update: unknown): Promise<void> {
  const claim = await gate.claimUpdate(update);
  await claim?.();
  gate.worthHolding(update);
  const parts = gate.gathers(update) ? [await gate.partFor(update)] : undefined;
  await gate.handleUnclaimed(update, parts, false);
  await gate.handleUnclaimed(update, undefined, true);
}

describe("one gate for every update", () => {
  it("a route added without any access code of its own never receives a stranger's update, and receives an allowed user's", async () => {
    const configured = rig({ chatId: GROUP, allowedUsers: [OWNER] });
    const strangers = [
      ...everyKind(STRANGER, GROUP), // another member of the configured group
      ...everyKind(STRANGER, STRANGER), // a stranger in their own chat with the bot
      ...everyKind(OWNER, OWNER), // the owner, but outside the configured chat
      ...everyKind(OWNER, -4242), // the owner in another group
      tap(OWNER, undefined), // a tap whose message Telegram left out: its chat can't be checked
    ];
    for (const update of strangers) await throughEveryDoor(configured.gate, update);
    expect(configured.seen).toEqual([]);

    // Before a chat is configured, nobody may act.
    const setup = rig({ chatId: undefined, allowedUsers: [] });
    for (const update of [...everyKind(OWNER, OWNER), ...everyKind(STRANGER, GROUP)]) await throughEveryDoor(setup.gate, update);
    expect(setup.seen).toEqual([]);

    // The owner in the configured chat reaches the route through every door, with the parsed update.
    for (const update of everyKind(OWNER, GROUP)) await throughEveryDoor(configured.gate, update);
    const kinds = configured.seen.map(({ door, intent }) => `${door}:${intent.kind}`);
    expect(new Set(kinds)).toEqual(
      new Set(
        ["claim:callback", "unclaimed:callback", "claim:command", "gathers:command", "partFor:command", "unclaimed:command"].concat([
          "claim:text",
          "unclaimed:text",
          "claim:attachment",
          "unclaimed:attachment",
          "gathers:callback",
          "gathers:text",
          "gathers:attachment",
        ]),
      ),
    );
    expect(configured.seen.every(({ intent }) => intent.from.userId === OWNER && intent.from.chatId === GROUP)).toBe(true);
    const voice = configured.seen.find(({ intent }) => intent.kind === "attachment" && intent.file.type === "voice");
    expect(voice?.intent).toMatchObject({ kind: "attachment", file: { kind: "audio", type: "voice", fileId: "v1" } });
  });

  it("a private chat without an allow-list: its user acts there, nobody else and nowhere else", async () => {
    const { gate, seen } = rig({ chatId: OWNER, allowedUsers: [] });
    for (const update of [...everyKind(STRANGER, STRANGER), ...everyKind(OWNER, GROUP)]) await throughEveryDoor(gate, update);
    expect(seen).toEqual([]);
    await throughEveryDoor(gate, message(OWNER, OWNER, { text: "hello" }));
    expect(seen.map(({ door }) => door)).toEqual(["claim", "gathers", "unclaimed", "unclaimed"]);
  });

  it("a group without an allow-list: every member acts, nobody outside it", async () => {
    const { gate, seen } = rig({ chatId: GROUP, allowedUsers: [] });
    await throughEveryDoor(gate, message(STRANGER, STRANGER, { text: "hello" }));
    expect(seen).toEqual([]);
    await throughEveryDoor(gate, message(STRANGER, GROUP, { text: "hello" }));
    expect(seen.map(({ intent }) => intent.from.userId)).toEqual([STRANGER, STRANGER, STRANGER, STRANGER]);
  });

  it("routes of one kind are asked in order: the first claim wins, a route that passes lets the next one answer", async () => {
    const asked: string[] = [];
    const fresh = new Gate(
      { chatId: GROUP, allowedUsers: [] },
      { ownsTap: () => false, refuseTap: async () => undefined, start: async () => undefined },
      silent,
    );
    fresh.route("attachment", {
      claim: (file) => {
        asked.push(`voice? ${file.file.type}`);
        return file.file.type === "voice" ? async () => void asked.push("voice taken") : undefined;
      },
      unclaimed: () => undefined,
    });
    fresh.route("attachment", {
      claim: () => {
        asked.push("files?");
        return async () => void asked.push("file taken");
      },
      unclaimed: async () => void asked.push("no session"),
    });
    await (await fresh.claimUpdate(message(OWNER, GROUP, { voice: { file_id: "v" } })))?.();
    await (await fresh.claimUpdate(message(OWNER, GROUP, { photo: [{ file_id: "p" }] })))?.();
    await fresh.handleUnclaimed(message(OWNER, GROUP, { photo: [{ file_id: "q" }] }));
    expect(asked).toEqual(["voice? voice", "voice taken", "voice? photo", "files?", "file taken", "no session"]);
  });

  it("what those who may not act get is decided here: a refused tap (claimed by the process whose message it is), and nothing else", async () => {
    const owning = rig({ chatId: GROUP, allowedUsers: [OWNER] }, { owns: true });
    const claim = await owning.gate.claimUpdate(tap(STRANGER, GROUP));
    expect(claim).toBeTypeOf("function");
    expect(owning.refused).toEqual([]); // deciding does nothing visible
    await claim!();
    expect(owning.refused).toEqual([`tap-${STRANGER}-${GROUP}`]);

    const other = rig({ chatId: GROUP, allowedUsers: [OWNER] }, { owns: false });
    expect(await other.gate.claimUpdate(tap(STRANGER, GROUP))).toBeUndefined();
    await other.gate.handleUnclaimed(tap(STRANGER, GROUP), undefined, true);
    await other.gate.handleUnclaimed(tap(OWNER, undefined));
    expect(other.refused).toEqual([`tap-${STRANGER}-${GROUP}`, `tap-${OWNER}-undefined`]);

    for (const update of [...everyKind(STRANGER, GROUP), ...everyKind(STRANGER, STRANGER)].filter((u) => !("callback_query" in (u as object))))
      await throughEveryDoor(other.gate, update);
    expect(other.refused).toHaveLength(2);
    expect(other.started).toEqual([]);
    expect(other.gate.worthHolding(tap(STRANGER, GROUP))).toBe(false);
    expect(other.gate.worthHolding(tap(OWNER, GROUP))).toBe(true);
  });

  it("/start goes to the setup answer for whoever may learn their ids, never to a route", async () => {
    const configured = rig({ chatId: GROUP, allowedUsers: [OWNER] }, { claims: true });
    for (const [user, chat] of [
      [STRANGER, STRANGER],
      [STRANGER, GROUP],
      [OWNER, GROUP],
      [OWNER, -4242],
    ] as const)
      await throughEveryDoor(configured.gate, message(user, chat, { text: "/start" }));
    expect(configured.seen).toEqual([]);
    // handleUnclaimed is called twice per update above: the pacing per chat is start-replies.ts' (in Commands).
    expect(configured.started).toEqual([GROUP, GROUP, -4242, -4242]);

    const setup = rig({ chatId: undefined, allowedUsers: [] }, { claims: true });
    await throughEveryDoor(setup.gate, message(STRANGER, STRANGER, { text: "/start" }));
    expect(setup.started).toEqual([STRANGER, STRANGER]);
    expect(setup.seen).toEqual([]);
  });

  it("a command naming another bot reaches no route and gets nothing; naming this bot, it does once Telegram said the bot's name", async () => {
    const { gate, seen, started } = rig({ chatId: GROUP, allowedUsers: [OWNER] });
    const other = [message(OWNER, GROUP, { text: "/new@other_bot" }), message(OWNER, GROUP, { text: "/status@other_bot" })];
    const ours = [message(OWNER, GROUP, { text: "/new@Hermes_Bot" }), message(OWNER, GROUP, { text: "/status@hermes_bot" })];
    const starts = [message(OWNER, GROUP, { text: "/start@other_bot" }), message(OWNER, GROUP, { text: "/start@hermes_bot" })];
    // Before the name is known, no command naming a bot is taken for this one's.
    for (const update of [...other, ...ours, ...starts]) {
      expect(gate.gathers(update)).toBe(false);
      await gate.handleUnclaimed(update);
    }
    expect(seen.filter(({ door }) => door !== "gathers" && door !== "claim")).toEqual([]);
    expect(started).toEqual([]);
    gate.learnBotName("hermes_bot");
    for (const update of [...other, ...ours, ...starts]) await throughEveryDoor(gate, update);
    const answered = seen
      .filter(({ door }) => door === "unclaimed" || door === "partFor")
      .map(({ door, intent }) => `${door} ${(intent as IntentOf<"command">).name}`);
    expect(answered).toEqual(["unclaimed new", "unclaimed new", "partFor status", "unclaimed status", "unclaimed status"]);
    expect(started).toEqual([GROUP, GROUP]);
  });

  it("a process that does not poll gives its part of a command naming the bot: the one that polls checked the address", async () => {
    const { gate } = rig({ chatId: GROUP, allowedUsers: [OWNER] });
    expect(await gate.partFor(message(OWNER, GROUP, { text: "/status@hermes_bot" }))).toEqual({ part: true });
    expect(await gate.partFor(message(STRANGER, GROUP, { text: "/status@hermes_bot" }))).toBeUndefined();
  });

  it("parses each update object once, however many times the relay asks about it", async () => {
    const { gate, seen } = rig({ chatId: GROUP, allowedUsers: [] });
    let reads = 0;
    const raw = message(OWNER, GROUP, { text: "/status" }) as Record<string, unknown>;
    const counted = new Proxy(raw, {
      get(target, key, receiver) {
        if (key === "message") reads++;
        return Reflect.get(target, key, receiver);
      },
    });
    await throughEveryDoor(gate, counted);
    expect(seen.length).toBeGreaterThan(0);
    expect(reads).toBe(1);
  });

  it("a route's types accept only what the gate made: an unchecked update does not compile", () => {
    const textRoute: Route<IntentOf<"text">> = { claim: () => undefined };
    const plain = parseUpdate(message(STRANGER, STRANGER, { text: "hi" }));
    expect(plain?.kind).toBe("text");
    const compileOnly = () => {
      if (plain?.kind !== "text") return;
      // @ts-expect-error a parsed update that did not pass the gate is not an Acting value
      textRoute.claim?.(plain);
      // @ts-expect-error nor can one be written by hand
      const forged: ActingText = { kind: "text", text: "hi", from: { userId: 1, chatId: 1, chatType: "private" }, messageId: 1 };
      return forged;
    };
    expect(compileOnly).toBeTypeOf("function"); // checked by `npm run typecheck`, never run
  });
});

describe("the gate in the real Bridge", () => {
  it("a route added to a Bridge, with no access code, never sees a stranger's update; the stranger's tap is still refused; the owner's updates reach it", async () => {
    const { bridge, telegram } = setup({ allowedUsers: [OWNER_IN_RIG] });
    const seen: Intent[] = [];
    for (const kind of ["callback", "command", "text", "attachment"] as const)
      bridge.route(kind, {
        claim: (intent) => {
          seen.push(intent);
          return async () => undefined;
        },
      });
    const fromStrangers = [...everyKind(STRANGER, CHAT_IN_RIG), ...everyKind(STRANGER, STRANGER), ...everyKind(OWNER_IN_RIG, -4242)];
    for (const update of fromStrangers) await bridge.handleUpdate(update);
    expect(seen).toEqual([]);
    expect(telegram.callbackAnswers).toEqual([
      { id: `tap-${STRANGER}-${CHAT_IN_RIG}`, text: "Not authorized", alert: true },
      { id: `tap-${STRANGER}-${STRANGER}`, text: "Not authorized", alert: true },
      { id: `tap-${OWNER_IN_RIG}--4242`, text: "Not authorized", alert: true },
    ]);
    expect(telegram.messages).toEqual([]); // strangers get nothing else
    for (const update of everyKind(OWNER_IN_RIG, CHAT_IN_RIG)) await bridge.handleUpdate(update);
    expect(seen.map((intent) => intent.kind)).toEqual(["callback", "command", "command", "text", "text", "attachment", "attachment"]);
    await bridge.stop(10);
  });
});

describe("no file in lib/ but the gate decides access or makes an Acting value", () => {
  const LIB = path.resolve(import.meta.dirname, "../../lib");
  const files = fs.readdirSync(LIB, { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".ts"));
  const scans = new Map(files.map((file) => [file, scan(file)]));

  /** The value names a file imports, by the imported file's name, and its casts to a type naming `Acting`. */
  function scan(file: string): { imports: Map<string, string[]>; actingCasts: number } {
    const text = fs.readFileSync(path.join(LIB, file), "utf8");
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const imports = new Map<string, string[]>();
    let actingCasts = 0;
    const visit = (node: ts.Node): void => {
      if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier) && !node.importClause?.isTypeOnly) {
        const bindings = node.importClause?.namedBindings;
        const names = bindings && ts.isNamedImports(bindings) ? bindings.elements.filter((e) => !e.isTypeOnly).map((e) => e.name.text) : [];
        imports.set(path.basename(node.moduleSpecifier.text), names);
      }
      if ((ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) && /\bActing/.test(node.type.getText(source))) actingCasts++;
      ts.forEachChild(node, visit);
    };
    visit(source);
    return { imports, actingCasts };
  }

  it("the checks and the parser are called only from the gate (and the setup CLI, which parses before any chat is configured)", () => {
    const deciders = files.filter((file) => (scans.get(file)!.imports.get("access.ts") ?? []).some((name) => name === "mayAct" || name === "mayLearnIds"));
    expect(deciders).toEqual([path.join("bridge", "core", "gate.ts")]);
    const parsers = files.filter((file) => (scans.get(file)!.imports.get("updates.ts") ?? []).includes("parseUpdate")).sort();
    expect(parsers).toEqual([path.join("bridge", "core", "gate.ts"), path.join("cli", "pairing.ts")]);
  });

  it("only the gate casts to Acting", () => {
    const casting = files.filter((file) => scans.get(file)!.actingCasts > 0);
    expect(casting).toEqual([path.join("bridge", "core", "gate.ts")]);
  });
});
