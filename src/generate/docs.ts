import type * as TS from 'typescript';

/**
 * Doc comments as descriptions: whitespace collapses,
 * `{@link X}` and `{@linkcode X}` become `X` (or their label), inline code keeps its text as written.
 */

type Comment = string | TS.NodeArray<TS.JSDocComment> | undefined;

function entityName(name: TS.EntityName | TS.JSDocMemberName | undefined, ts: typeof TS): string {
  if (!name) return '';
  if (ts.isIdentifier(name)) return name.text;
  return `${entityName(name.left, ts)}${ts.isQualifiedName(name) ? '.' : '#'}${name.right.text}`;
}

function raw(comment: Comment, ts: typeof TS): string {
  if (comment === undefined || typeof comment === 'string') return comment ?? '';
  return comment
    .map((part) => {
      if (ts.isJSDocLink(part) || ts.isJSDocLinkCode(part) || ts.isJSDocLinkPlain(part)) {
        const label = part.text.replace(/^\s*\|?\s*/, '').trim();
        return label || entityName(part.name, ts);
      }
      return part.text;
    })
    .join('');
}

/** Collapses whitespace outside inline code spans; a span keeps its backticks and inner spacing. */
export function collapse(text: string): string {
  return text
    .split(/(`[^`]*`)/)
    .map((piece, i) => (i % 2 === 1 ? piece : piece.replace(/\s+/g, ' ')))
    .join('')
    .trim();
}

function lastDoc(node: TS.Node, ts: typeof TS): TS.JSDoc | undefined {
  const docs = ts.getJSDocCommentsAndTags(node).filter(ts.isJSDoc);
  return docs[docs.length - 1];
}

/** The summary of a declaration's doc comment (the text before its tags), or `@description`. */
export function summaryOf(node: TS.Node, ts: typeof TS): string | undefined {
  const doc = lastDoc(node, ts);
  if (!doc) return undefined;
  const described = doc.tags?.find((t) => t.tagName.text === 'description');
  const text = collapse(raw(doc.comment, ts)) || (described ? collapse(raw(described.comment, ts)) : '');
  return text || undefined;
}

/** The `@param name text` of a parameter (a leading `-` separator is dropped). */
export function paramDocOf(param: TS.ParameterDeclaration, ts: typeof TS): string | undefined {
  const tag = ts.getJSDocParameterTags(param).find((t) => t.comment !== undefined);
  const text = tag && collapse(raw(tag.comment, ts)).replace(/^-\s*/, '');
  return text || undefined;
}
