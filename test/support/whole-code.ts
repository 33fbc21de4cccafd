// Whether a piece of code a guide gives is in a file as whole code: a run of whole syntax
// nodes as TypeScript's own parser reads the file (statements, declarations, members, JSX
// elements or attributes, one import), never a part of one. A block cut short (a call missing
// its closing parenthesis) still appears in the file as text, but it ends inside a node; so does
// a block that only fits somewhere by accident.
import ts from "typescript";

/** A token of a parsed file: its text, and where it starts and ends (trivia excluded). */
interface Token {
  text: string;
  start: number;
  end: number;
}

/**
 * Where `block` is in `source` as whole code (the start and end of each such run), formatting
 * and comments aside. `fileName` chooses the parser's language (`.tsx` reads JSX).
 */
export function wholeCodeRuns(
  source: string,
  block: string,
  fileName: string,
): { start: number; end: number }[] {
  const file = parse(source, fileName);
  const fileTokens = tokensOf(file);
  const blockTokens = tokensOf(parse(block, fileName)).map((t) => t.text);
  if (blockTokens.length === 0) return [];
  const runs: { start: number; end: number }[] = [];
  for (let i = 0; i + blockTokens.length <= fileTokens.length; i++) {
    if (!blockTokens.every((text, k) => fileTokens[i + k]!.text === text)) continue;
    const run = { start: fileTokens[i]!.start, end: fileTokens[i + blockTokens.length - 1]!.end };
    if (coversWholeNodes(file, run)) runs.push(run);
  }
  return runs;
}

function parse(text: string, fileName: string): ts.SourceFile {
  const kind = fileName.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  return ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, kind);
}

/**
 * The file's leaf tokens in order, doc comments left out. JSX text is split into words: its line
 * breaks and spaces are formatting, like the whitespace between other tokens.
 */
function tokensOf(file: ts.SourceFile): Token[] {
  const tokens: Token[] = [];
  const visit = (node: ts.Node) => {
    // Doc comments are comments: the text check beside this one reads them.
    if (node.kind >= ts.SyntaxKind.FirstJSDocNode && node.kind <= ts.SyntaxKind.LastJSDocNode) {
      return;
    }
    const children = node.getChildren(file);
    if (children.length > 0) {
      children.forEach(visit);
      return;
    }
    if (node.kind === ts.SyntaxKind.EndOfFileToken) return;
    if (node.kind === ts.SyntaxKind.JsxText) {
      const text = node.getText(file);
      const at = node.getStart(file);
      for (const word of text.matchAll(/\S+/g)) {
        tokens.push({
          text: word[0],
          start: at + word.index,
          end: at + word.index + word[0].length,
        });
      }
      return;
    }
    const start = node.getStart(file);
    if (node.end > start) tokens.push({ text: node.getText(file), start, end: node.end });
  };
  visit(file);
  // A trailing comma is formatting too (Prettier adds it where a list breaks over lines), and so
  // is the comma after a block's last member (which separates it from the next in the file).
  return tokens.filter(
    (token, i) => token.text !== "," || !/^[)\]}>]?$/.test(tokens[i + 1]?.text ?? ""),
  );
}

/**
 * Whether `run` starts where one syntax node starts and ends where one ends, both children of
 * the smallest node that holds the whole run (or is that node itself).
 */
function coversWholeNodes(file: ts.SourceFile, run: { start: number; end: number }): boolean {
  let holder: ts.Node = file;
  for (;;) {
    const inner = holder
      .getChildren(file)
      .find((child) => child.getStart(file) <= run.start && child.end >= run.end);
    if (!inner || inner.getChildCount(file) === 0) break;
    holder = inner;
  }
  if (holder.getStart(file) === run.start && holder.end === run.end) return true;
  const children = holder.getChildren(file);
  return (
    children.some((child) => child.getStart(file) === run.start) &&
    children.some((child) => child.end === run.end)
  );
}
