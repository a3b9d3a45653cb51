// The pure half of setup's pairing (lib/cli/pairing.ts) and the terminal escaping of Telegram names
// (lib/cli/terminal-text.ts). The pairing against the fake Bot API is in tests/unit/setup.test.ts.
import { describe, expect, it } from "vitest";
import { newPairingCode, pairingLinks, pairingStart } from "../../lib/cli/pairing.ts";
import { forTerminal } from "../../lib/cli/terminal-text.ts";

const CODE = "AbC_12-xyz";
const start = (
  text: string,
  chat: Record<string, unknown> = { id: 42, type: "private" },
  from: Record<string, unknown> = { id: 42, is_bot: false, first_name: "Ada" },
) => ({
  update_id: 1,
  message: { message_id: 5, date: 0, text, chat, from },
});

describe("newPairingCode", () => {
  it("is 22 characters a deep link's start parameter allows, and differs each time", () => {
    const codes = new Set(Array.from({ length: 50 }, () => newPairingCode()));
    expect(codes.size).toBe(50);
    for (const code of codes) expect(code).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });
});

describe("pairingLinks", () => {
  it("links the private chat (start=) and the group picker (startgroup=)", () => {
    expect(pairingLinks("my_bot", CODE)).toEqual({ privateChat: `https://t.me/my_bot?start=${CODE}`, group: `https://t.me/my_bot?startgroup=${CODE}` });
  });
});

describe("pairingStart", () => {
  it("takes /start with the code, in a private chat or (naming this bot) in a group", () => {
    expect(pairingStart(start(`/start ${CODE}`), "my_bot", CODE)).toEqual({ messageId: 5, chatId: 42, chatType: "private", userId: 42, userName: "Ada" });
    const group = pairingStart(
      start(`/start@My_Bot ${CODE}`, { id: -100, type: "supergroup", title: "Team" }, { id: 7, first_name: "Bo", username: "bo" }),
      "my_bot",
      CODE,
    );
    expect(group).toEqual({ messageId: 5, chatId: -100, chatType: "supergroup", chatTitle: "Team", userId: 7, userName: "@bo" });
  });

  it.each(["/start", "/start wrong", `/start ${CODE}x`, `/start ${CODE.toLowerCase()}`])("refuses %j as a wrong code", (text) => {
    expect(pairingStart(start(text), "my_bot", CODE)).toBe("wrong-code");
  });

  it('calls other messages and other bots\' /start "other", and ignores what is not a message', () => {
    expect(pairingStart(start("hello"), "my_bot", CODE)).toBe("other");
    expect(pairingStart(start(`/start@other_bot ${CODE}`), "my_bot", CODE)).toBe("other");
    expect(pairingStart(start(`/help ${CODE}`), "my_bot", CODE)).toBe("other");
    expect(pairingStart({ update_id: 1 }, "my_bot", CODE)).toBeUndefined();
    expect(pairingStart(null, "my_bot", CODE)).toBeUndefined();
    expect(pairingStart(start(`/start ${CODE}`, { id: 42, type: "private" }, { id: 42, is_bot: true }), "my_bot", CODE)).toBeUndefined();
  });
});

describe("forTerminal", () => {
  it("keeps ordinary names, scripts and emoji", () => {
    expect(forTerminal("Ada Lovelace")).toBe("Ada Lovelace");
    expect(forTerminal("张伟 👩‍💻 Ñandú")).toBe("张伟 👩‍💻 Ñandú");
  });

  it("shows control, escape, bidi and zero-width characters as visible escapes", () => {
    expect(forTerminal("a\u001b[31mb\u0007\r\n\u007f\u009b")).toBe("a\\u{1b}[31mb\\u{7}\\u{d}\\u{a}\\u{7f}\\u{9b}");
    expect(forTerminal("x\u202ey\u2066z\u200bw\ufeff")).toBe("x\\u{202e}y\\u{2066}z\\u{200b}w\\u{feff}");
  });

  it("cuts long text at whole characters", () => {
    expect(forTerminal("😀".repeat(100), 10)).toBe(`${"😀".repeat(9)}…`);
    expect(forTerminal("abc", 3)).toBe("abc");
  });
});
