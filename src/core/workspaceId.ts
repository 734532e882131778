// Which workspace wrote a piece of evidence. The id is the folder's name plus a hash of the folder's URI:
// two projects called `app` at different paths are different workspaces, and the name keeps the id
// readable where per-workspace evidence is shown. Stores written before this change keyed evidence by the
// bare folder name; that name is read as an alias of every id that carries it, so old evidence still
// counts for the folder that wrote it (a workspace store is the folder's own, so there it is exact; in a
// store shared across folders, old evidence of two same-named folders cannot be told apart, as before).
import { stableHash } from './ids';

const SEPARATOR = '#';
const ID = /^(.*)#([0-9a-f]{16})$/;

/** The workspace id of a folder: `name#hash(uri)`. `uri` is the folder URI's string form. */
export function workspaceIdOf(uri: string, name: string): string {
  return `${name}${SEPARATOR}${stableHash(uri)}`;
}

/** The name the workspace was known by before ids carried a hash, or undefined for a legacy or CLI name. */
export function legacyWorkspaceName(id: string): string | undefined {
  return ID.exec(id)?.[1];
}

/** A workspace as people know it, its folder's name (`demo#382236f942f0c35a` → `demo`): what history lines show. */
export function workspaceName(id: string): string {
  return legacyWorkspaceName(id) ?? id;
}

/** True when `a` and `b` name the same workspace: equal ids, or a legacy name and an id carrying it. */
export function sameWorkspace(a: string | undefined, b: string | undefined): boolean {
  if (a === undefined || b === undefined) return false;
  if (a === b) return true;
  const la = legacyWorkspaceName(a);
  const lb = legacyWorkspaceName(b);
  // Two hashed ids are equal or different workspaces; the alias only joins a bare name to a hashed id.
  if (la !== undefined && lb !== undefined) return false;
  return la === b || lb === a;
}
