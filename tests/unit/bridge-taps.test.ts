// Buttons reach the handler of their prompt's kind: a button of another kind (stale or forged
// callback data on a prompt's key) is answered "does not belong here" and changes nothing.
import { describe, expect, it } from "vitest";
import { decodeCallback, encodeCallback, type CallbackAction } from "../../lib/telegram/codec.ts";
import { CATALOGS } from "../../lib/i18n/catalog.ts";
import type { MemoryMessage } from "../support/memory-telegram.ts";
import { CHAT, OWNER, permission, request, setup } from "../support/bridge-rig.ts";

type Rig = ReturnType<typeof setup>;

/** Taps callback data that no button of the message carries: the prompt's key with another action. */
async function forge(rig: Rig, message: MemoryMessage, action: CallbackAction, id: string): Promise<void> {
  const key = decodeCallback(message.keyboard[0]![0]!.callback_data)!.key;
  const data = encodeCallback({ key, action, question: 0, option: 0 });
  const from = { id: OWNER, first_name: "U" };
  const tapped = { message_id: message.messageId, chat: { id: CHAT, type: "private" } };
  await rig.bridge.handleUpdate({ update_id: 1, callback_query: { id, from, data, message: tapped } });
}

const WRONG = CATALOGS.en.note.wrongButton;

/** What the callback answers said to the taps whose ids start with `prefix`. */
function answersTo(rig: Rig, prefix: string): (string | undefined)[] {
  return rig.telegram.callbackAnswers.filter((answer) => answer.id.startsWith(prefix)).map((answer) => answer.text);
}

describe("taps by prompt kind", () => {
  it("a permission's button on a question prompt, and Stop's, change nothing", async () => {
    const rig = setup();
    const message = await rig.ask(request());
    for (const action of ["once", "always", "reject", "feedback", "stop", "halt"] as const) await forge(rig, message, action, `q-${action}`);
    expect(answersTo(rig, "q-")).toEqual([WRONG, WRONG, WRONG, WRONG, WRONG, WRONG]);
    expect(rig.opencode.posts).toEqual([]);
    expect(message.keyboard.length).toBeGreaterThan(0);
    await rig.bridge.stop();
  });

  it("a question's button on a permission prompt changes nothing", async () => {
    const rig = setup();
    const message = await rig.askPermission(permission());
    for (const action of ["option", "done", "type", "dismiss", "confirm", "page"] as const) await forge(rig, message, action, `p-${action}`);
    expect(answersTo(rig, "p-")).toEqual([WRONG, WRONG, WRONG, WRONG, WRONG, WRONG]);
    expect(rig.opencode.posts).toEqual([]);
    expect(message.keyboard.length).toBeGreaterThan(0);
    await rig.bridge.stop();
  });
});
