// Whether a Hermes on this machine (a plugin in OpenCode, or `opencode-hermes attach`) already polls a
// bot: the leader of its relay (lib/relay/) listens on the socket named after the token.
import net from "node:net";
import { relayAddress } from "../relay/address.ts";

/** Whether a Hermes on this machine leads the polling of this bot: its relay socket answers. */
export function hermesPollsHere(token: string, apiRoot: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(relayAddress(token, apiRoot));
    const done = (running: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(running);
    };
    const timer = setTimeout(() => done(false), 1_000);
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
  });
}
