// One line that says what went wrong, for logs and for the phone: "Name: message" for an Error,
// the value as text for anything else thrown.
export function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
