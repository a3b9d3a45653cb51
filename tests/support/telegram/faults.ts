import type { Fault } from "./types.ts";

/** The currently armed fault; `times` counts down and disarms it at zero (unset = forever). */
export class FaultInjector {
  private fault: Fault | null = null;
  private remaining = Infinity;

  set(fault: Fault | null): void {
    this.fault = fault;
    this.remaining = fault && fault.kind !== "down" ? (fault.times ?? Infinity) : Infinity;
  }

  /** The armed fault, if any ('down' included). */
  get current(): Fault | null {
    return this.fault;
  }

  /** The fault to apply to this call, if any (consumes one use). */
  take(method: string): Exclude<Fault, { kind: "down" }> | undefined {
    const fault = this.fault;
    if (!fault || fault.kind === "down" || this.remaining <= 0) return undefined;
    if (fault.methods && !fault.methods.some((m) => m.toLowerCase() === method.toLowerCase())) return undefined;
    this.remaining--;
    if (this.remaining <= 0) this.fault = null;
    return fault;
  }
}
