// Whether a Hermes on this machine (a plugin in OpenCode, or `opencode-hermes attach`) already polls a
// bot: the leader of its relay (lib/relay/) listens on the socket named after the token.
import { relayAddress } from "../relay/address.ts";
import { probeSocket } from "../relay/socket-file.ts";

/** Whether a Hermes on this machine leads the polling of this bot: its relay socket answers. */
export async function hermesPollsHere(token: string, apiRoot: string): Promise<boolean> {
  return (await probeSocket(relayAddress(token, apiRoot))) === "answers";
}
