import { X509Certificate, createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createSecureContext, type SecureContext } from 'node:tls';
import { join } from 'node:path';
import { issueCertificate, pem, spkiHash } from './x509.js';

// The interception proxy's certificate authority: made once per data directory, in its
// `intercept/` directory (ca.pem, the certificate the intercepted command trusts; ca-key.pem and
// leaf-key.pem, 0600, never printed or copied anywhere else). A directory that cannot be read,
// whose keys others could read, or whose CA expires within RENEW_BEFORE_MS is replaced whole, with
// a message saying why. Leaf certificates are made in memory, one per intercepted name, on demand.

export const CA_DIR = 'intercept';
const CA_DAYS = 365;
const DAY_MS = 86_400_000;
/** A CA this close to its end is replaced (a leaf never outlives it; a week's serve would fail mid-way). */
const RENEW_BEFORE_MS = 30 * DAY_MS;
const LEAF_MS = 30 * DAY_MS;
/** Leaves kept (one per intercepted name); past this, the oldest goes. */
const MAX_LEAVES = 256;

export interface Authority {
  /** The CA certificate (PEM): what NODE_EXTRA_CA_CERTS and SSL_CERT_FILE-style variables name. */
  readonly caFile: string;
  /** base64 SHA-256 of the leaves' public key (Chromium's --ignore-certificate-errors-spki-list). */
  readonly leafSpki: string;
  readonly notAfter: Date;
  /** A TLS context presenting a leaf for exactly this name (the caller decides the name is intercepted). */
  contextFor(name: string): SecureContext;
}

interface Loaded {
  caCert: X509Certificate;
  caKey: KeyObject;
  leafKey: KeyObject;
}

/** The CA of `dataDir` (made when missing, replaced when unusable: `warn` says why). */
export function loadAuthority(dataDir: string, warn: (message: string) => void, now = Date.now()): Authority {
  const dir = join(dataDir, CA_DIR);
  let loaded: Loaded;
  const problem = unusable(dir, now);
  if (problem === 'missing') loaded = create(dir, now, false);
  else if (problem) {
    warn(`The interception CA in ${dir} ${problem}: made a new one (commands given the old ca.pem must be given the new one)`);
    loaded = create(dir, now, true);
  } else loaded = read(dir);
  return authority(dir, loaded, now);
}

function read(dir: string): Loaded {
  const caCert = new X509Certificate(readFileSync(join(dir, 'ca.pem')));
  const caKey = createPrivateKey(readFileSync(join(dir, 'ca-key.pem')));
  const leafKey = createPrivateKey(readFileSync(join(dir, 'leaf-key.pem')));
  return { caCert, caKey, leafKey };
}

/** Why the CA directory cannot be used ('missing' when there is none), or null. */
function unusable(dir: string, now: number): string | null {
  if (!statSync(dir, { throwIfNoEntry: false })) return 'missing';
  let loaded: Loaded;
  try {
    for (const key of ['ca-key.pem', 'leaf-key.pem']) {
      if ((statSync(join(dir, key)).mode & 0o077) !== 0) return `had a key others could read (${key})`;
    }
    loaded = read(dir);
  } catch (err) {
    return `could not be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`;
  }
  const { caCert, caKey, leafKey } = loaded;
  if (!caCert.ca || !caCert.checkPrivateKey(caKey) || caKey.asymmetricKeyType !== 'ec' || leafKey.asymmetricKeyType !== 'ec') return 'was not a CA with its key';
  const until = Date.parse(caCert.validTo);
  if (!(until - RENEW_BEFORE_MS > now)) return until <= now ? `expired on ${new Date(until).toISOString()}` : `expires on ${new Date(until).toISOString()}`;
  return null;
}

/** Writes a new CA aside and renames it into place (a concurrent maker's wins; a bad one is moved away first). */
function create(dir: string, now: number, replace: boolean, retried = false): Loaded {
  const ec = () => generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const ca = ec();
  const leaf = ec();
  const notBefore = new Date(now - 3_600_000);
  const notAfter = new Date(now + CA_DAYS * DAY_MS);
  const commonName = `cms sandbox interception CA ${randomBytes(4).toString('hex')}`;
  const der = issueCertificate({ subjectKey: ca.publicKey, issuerKey: ca.privateKey, issuerPublicKey: ca.publicKey, issuerName: commonName, notBefore, notAfter, ca: { commonName } });
  const tmp = `${dir}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  mkdirSync(tmp, { mode: 0o700 });
  try {
    const key = (k: KeyObject) => k.export({ format: 'pem', type: 'pkcs8' }) as string;
    writeFileSync(join(tmp, 'ca-key.pem'), key(ca.privateKey), { mode: 0o600 });
    writeFileSync(join(tmp, 'leaf-key.pem'), key(leaf.privateKey), { mode: 0o600 });
    writeFileSync(join(tmp, 'ca.pem'), pem(der), { mode: 0o644 });
    if (replace) {
      const old = `${dir}.old-${process.pid}-${randomBytes(4).toString('hex')}`;
      try {
        renameSync(dir, old);
        rmSync(old, { recursive: true, force: true });
      } catch {
        /* another process replaced it meanwhile */
      }
    }
    renameSync(tmp, dir);
  } catch (err) {
    rmSync(tmp, { recursive: true, force: true });
    const code = (err as NodeJS.ErrnoException).code;
    // Another process made one at the same moment: use it (once; if it too is unusable, make ours).
    if ((code === 'ENOTEMPTY' || code === 'EEXIST') && !retried) return unusable(dir, now) ? create(dir, now, true, true) : read(dir);
    throw err;
  }
  return { caCert: new X509Certificate(der), caKey: ca.privateKey, leafKey: leaf.privateKey };
}

function authority(dir: string, { caCert, caKey, leafKey }: Loaded, now: number): Authority {
  const leafPublic = createPublicKey(leafKey);
  const caPublic = createPublicKey(caKey);
  const notAfter = new Date(caCert.validTo);
  const issuerName = /CN=([^\n]+)/.exec(caCert.subject)?.[1] ?? 'cms sandbox interception CA';
  const leafKeyPem = leafKey.export({ format: 'pem', type: 'pkcs8' });
  const contexts = new Map<string, SecureContext>();
  return {
    caFile: join(dir, 'ca.pem'),
    leafSpki: spkiHash(leafPublic),
    notAfter,
    contextFor(name) {
      const known = contexts.get(name);
      if (known) return known;
      const at = Math.max(now, Date.now());
      const der = issueCertificate({
        subjectKey: leafPublic,
        issuerKey: caKey,
        issuerPublicKey: caPublic,
        issuerName,
        notBefore: new Date(at - 3_600_000),
        notAfter: new Date(Math.min(at + LEAF_MS, notAfter.getTime())),
        dnsNames: [name],
      });
      const context = createSecureContext({ key: leafKeyPem, cert: pem(der) + caCert.toString() });
      if (contexts.size >= MAX_LEAVES) contexts.delete(contexts.keys().next().value!);
      contexts.set(name, context);
      return context;
    },
  };
}
