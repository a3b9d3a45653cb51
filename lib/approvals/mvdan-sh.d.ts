// mvdan-sh ships no types: the part of its GopherJS API shell-syntax.ts uses. Its nodes stay untyped
// (read field by field in shell-syntax.ts only).
declare module "mvdan-sh" {
  // biome-ignore lint/suspicious/noExplicitAny: GopherJS objects, read only in shell-syntax.ts.
  type Node = any;
  export interface Syntax {
    NewParser(): { Parse(text: string, name: string): Node };
    NodeType(node: Node): string;
    Walk(node: Node, visit: (node: Node) => boolean): void;
  }
  const sh: { syntax: Syntax };
  export default sh;
}
