import { randomBytes } from 'node:crypto';
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readSync, readdirSync, realpathSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { CliError, UsageError } from '../../core/errors.js';

// Files in a directory someone else may have prepared (an export or content model kept in git,
// written by anyone who can open a pull request): every path stays inside the directory, reads
// take only regular files of bounded size and nesting, writes never follow a planted symlink.
// One place for `cms item export | import`, `cms schema apply` and `cms type apply`.

/** The largest file read (an item, a manifest, a schema): a larger one is refused. */
export const MAX_FILE_BYTES = 64 * 1024 * 1024;
/** The deepest JSON nesting read: deeper documents would overflow recursive code later. */
export const MAX_JSON_DEPTH = 512;
/** The deepest directory walk (apply reads sub-directories). */
const MAX_WALK_DEPTH = 32;

/** An id from the service used as a file name: no separators, no dot first, no `..`. */
const SAFE_ID = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}$/;
export const isSafeId = (id: unknown): id is string => typeof id === 'string' && SAFE_ID.test(id);

/** What a directory walk passed over because a dot hides it (SafeDir.jsonFiles). */
export interface SkippedFiles {
  /** `*.json` files that are, or are under, a dot entry. */
  files: string[];
  /** Version-control directories, not walked. */
  dirs: string[];
}
const VCS_DIRS = new Set(['.git', '.hg', '.svn']);

/** A file that cannot be used: exit 2, naming it and what is wrong (never its content). */
export class FileProblem extends UsageError {
  constructor(
    readonly file: string,
    readonly problem: string,
  ) {
    super(`${file} ${problem}`);
  }
}

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK } = constants;

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

function kindOf(st: { isDirectory(): boolean; isFIFO(): boolean; isSocket(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean }): string {
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a FIFO';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

export class SafeDir {
  /** The directory with every symlink resolved: what "inside" is measured against. */
  readonly real: string;
  private readonly checked = new Set<string>();

  constructor(readonly root: string) {
    try {
      this.real = realpathSync(root);
    } catch (err) {
      throw new UsageError(`Cannot read ${root}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such directory' : (err as Error).message}`);
    }
  }

  /** The absolute path of a relative one; `..`, absolute paths and NUL are refused. */
  path(rel: string): string {
    if (isAbsolute(rel) || rel.includes('\0') || rel.split(/[\\/]/).includes('..')) throw new UsageError(`${JSON.stringify(rel)} is not a path inside ${this.root}`);
    return join(this.root, rel);
  }

  /** Where a path really leads, refused when outside the directory; undefined when nothing is there. */
  private resolved(rel: string): string | undefined {
    const path = this.path(rel);
    let real: string;
    try {
      real = realpathSync(path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw new FileProblem(path, `cannot be read: ${(err as NodeJS.ErrnoException).code ?? 'error'}`);
      let link = false;
      try {
        link = lstatSync(path).isSymbolicLink();
      } catch {
        // Nothing there at all.
      }
      if (link) throw new FileProblem(path, 'is a symbolic link leading nowhere (no such file)');
      return undefined;
    }
    if (!inside(this.real, real)) throw new FileProblem(path, `is a symbolic link leading outside the directory ${this.root}`);
    return real;
  }

  exists(rel: string): boolean {
    return this.resolved(rel) !== undefined;
  }

  /** A regular file (not a symlink) is at rel. */
  isRegularFile(rel: string): boolean {
    try {
      return lstatSync(this.path(rel)).isFile();
    } catch {
      return false;
    }
  }

  /** Creates the directory rel (and its parents) inside the root; a parent leading outside is refused. */
  ensureDir(rel: string): string {
    if (this.checked.has(rel)) return this.path(rel);
    let at = '';
    for (const part of rel.split(/[\\/]/).filter(Boolean)) {
      at = at ? join(at, part) : part;
      if (this.checked.has(at)) continue;
      const real = this.resolved(at);
      if (!real) mkdirSync(this.path(at));
      else if (!statSync(real).isDirectory()) throw new FileProblem(this.path(at), 'is not a directory');
      this.checked.add(at);
    }
    return this.path(rel);
  }

  /**
   * Writes a file through a temporary created exclusively (never a planted file or symlink) and a
   * rename (which replaces a symlink at the name instead of following it).
   */
  writeWith(rel: string, write: (fd: number) => void): void {
    const parent = this.ensureDir(join(rel, '..'));
    const target = this.path(rel);
    const temp = join(parent, `.${randomBytes(6).toString('hex')}.tmp`);
    const fd = openSync(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o644);
    try {
      write(fd);
      closeSync(fd);
      renameSync(temp, target);
    } catch (err) {
      try {
        closeSync(fd);
      } catch {
        // Closed already.
      }
      unlinkSync(temp);
      throw err;
    }
  }

  writeFile(rel: string, text: string): void {
    this.writeWith(rel, (fd) => writeSync(fd, text));
  }

  /** Removes a file (or a symlink itself) inside the directory; a missing one is fine. */
  remove(rel: string): void {
    const path = this.path(rel);
    const parent = this.resolved(join(rel, '..'));
    if (!parent) return;
    try {
      if (lstatSync(path).isDirectory()) return;
      unlinkSync(path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }

  /** The text of a regular file inside the directory, at most MAX_FILE_BYTES. */
  readText(rel: string, maxBytes = MAX_FILE_BYTES): string {
    const path = this.path(rel);
    const real = this.resolved(rel);
    if (!real) throw new FileProblem(path, 'does not exist');
    let fd: number;
    try {
      // Non-blocking: opening a FIFO must not wait for a writer.
      fd = openSync(real, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
    } catch (err) {
      throw new FileProblem(path, `cannot be read: ${(err as NodeJS.ErrnoException).code ?? 'error'}`);
    }
    try {
      const st = fstatSync(fd);
      if (!st.isFile()) throw new FileProblem(path, `is ${kindOf(st)}, not a regular file`);
      if (st.size > maxBytes) throw new FileProblem(path, `is larger than ${maxBytes / 2 ** 20} MiB (${Math.ceil(st.size / 2 ** 20)} MiB)`);
      const buf = Buffer.alloc(st.size + 1);
      let n = 0;
      for (let r; n < buf.length && (r = readSync(fd, buf, n, buf.length - n, null)) > 0; ) n += r;
      if (n > st.size) throw new FileProblem(path, 'grew while it was read');
      return buf.toString('utf8', 0, n);
    } finally {
      closeSync(fd);
    }
  }

  readJson(rel: string): unknown {
    return parseJson(this.readText(rel), this.path(rel));
  }

  /**
   * Every `*.json` under rel (relative to the root, sorted), dot files skipped. Directories are
   * walked, symlinked ones only when they stay inside; what a `.json` entry is gets checked when
   * it is read. What is skipped is never silent: given `skipped`, it receives every `*.json` a
   * dot hides (a dot file, or a file under a dot directory) and every dot directory not walked
   * (`.git`), so a reader can report them.
   */
  jsonFiles(rel = '', maxDepth = MAX_WALK_DEPTH, skipped?: SkippedFiles): string[] {
    const found: string[] = [];
    const walked = new Set<string>();
    const walk = (at: string, depth: number, hidden: boolean) => {
      const real = this.resolved(at);
      if (!real || walked.has(real)) return;
      walked.add(real);
      for (const entry of readdirSync(real, { withFileTypes: true })) {
        const path = at ? join(at, entry.name) : entry.name;
        const dot = hidden || entry.name.startsWith('.');
        if (dot && !skipped) continue;
        if (entry.name.endsWith('.json')) (dot ? skipped!.files : found).push(path);
        else if (dot && VCS_DIRS.has(entry.name)) skipped!.dirs.push(path);
        else if (depth < maxDepth && (entry.isDirectory() || (entry.isSymbolicLink() && this.isDirectory(path)))) walk(path, depth + 1, dot);
      }
    };
    walk(rel, 1, false);
    skipped?.files.sort();
    return found.sort();
  }

  private isDirectory(rel: string): boolean {
    const real = this.resolved(rel);
    return Boolean(real && statSync(real).isDirectory());
  }
}

/**
 * JSON.parse with a nesting cap, whose errors never quote the text (it may be a file that is not
 * JSON at all, e.g. a symlink to a secret).
 */
export function parseJson(text: string, what: string): unknown {
  const depth = nestingDepth(text);
  if (depth > MAX_JSON_DEPTH) throw new FileProblem(what, `is nested deeper than ${MAX_JSON_DEPTH} levels`);
  try {
    return JSON.parse(text);
  } catch (err) {
    const at = errorOffset(text);
    const where = at >= text.length ? ` (it ends too early, at ${lineColumn(text, text.length)})` : ` (${lineColumn(text, at)})`;
    throw new FileProblem(what, `is not valid JSON${where}`);
  }
}

/** The deepest nesting of [ and { outside strings; stops counting past the cap. */
function nestingDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      if (++depth > max) max = depth;
      if (max > MAX_JSON_DEPTH) return max;
    } else if (c === 93 || c === 125) depth--;
  }
  return max;
}

/**
 * Where JSON text first goes wrong. JSON.parse's messages do not always say (Node 20: "Unexpected
 * token 'o', ..."), so a small scanner walks the grammar; nesting is already capped.
 */
export function errorOffset(text: string): number {
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const fail = (): never => {
    throw i;
  };
  const literal = (word: string) => (text.startsWith(word, i) ? (i += word.length) : fail());
  const string = () => {
    i++;
    for (;;) {
      if (i >= text.length) fail();
      const c = text[i]!;
      if (c === '"') return void i++;
      if (c < ' ') fail();
      if (c === '\\') {
        i++;
        if (text[i] === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) fail();
          i += 5;
        } else if ('"\\/bfnrt'.includes(text[i] ?? '')) i++;
        else fail();
      } else i++;
    }
  };
  const number = () => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!m) fail();
    i += m![0].length;
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') return void i++;
      for (;;) {
        ws();
        if (text[i] !== '"') fail();
        string();
        ws();
        if (text[i] !== ':') fail();
        i++;
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') return void i++;
        else fail();
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') return void i++;
      for (;;) {
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') return void i++;
        else fail();
      }
    }
    if (c === '"') return string();
    if (c === 't') return void literal('true');
    if (c === 'f') return void literal('false');
    if (c === 'n') return void literal('null');
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return number();
    fail();
  };
  try {
    value();
    ws();
    return i < text.length ? i : text.length;
  } catch (at) {
    return at as number;
  }
}

function lineColumn(text: string, pos: number): string {
  const before = text.slice(0, pos);
  const line = before.split('\n').length;
  return `line ${line}, column ${pos - before.lastIndexOf('\n')}`;
}

/** An id the service answered, checked before it names a file or a path: exit 1 otherwise. */
export function checkedId(id: unknown, what = 'item'): string {
  if (isSafeId(id)) return id;
  throw new CliError(`The service returned ${JSON.stringify(id)?.slice(0, 200)}, which is not a valid ${what} id; nothing was written for it`);
}
