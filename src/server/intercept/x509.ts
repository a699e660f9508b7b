import { createHash, createPublicKey, randomBytes, sign, type KeyObject } from 'node:crypto';

// Just enough DER to issue the interception proxy's certificates (a CA and leaves for exact DNS
// names) with node:crypto's keys and signatures: no X.509 library is loaded for it. ECDSA P-256
// with SHA-256 only; node's X509Certificate reads what this writes (test/unit/intercept-ca.test.ts).

const length = (n: number): Buffer =>
  n < 0x80 ? Buffer.from([n]) : n < 0x100 ? Buffer.from([0x81, n]) : n < 0x10000 ? Buffer.from([0x82, n >> 8, n & 0xff]) : Buffer.from([0x83, n >> 16, (n >> 8) & 0xff, n & 0xff]);
const tlv = (tag: number, ...parts: Buffer[]): Buffer => {
  const body = Buffer.concat(parts);
  return Buffer.concat([Buffer.from([tag]), length(body.length), body]);
};
const seq = (...parts: Buffer[]) => tlv(0x30, ...parts);
const set = (...parts: Buffer[]) => tlv(0x31, ...parts);
const bool = (v: boolean) => tlv(0x01, Buffer.from([v ? 0xff : 0]));
const octets = (b: Buffer) => tlv(0x04, b);
const bits = (b: Buffer, unused = 0) => tlv(0x03, Buffer.from([unused]), b);
const utf8 = (s: string) => tlv(0x0c, Buffer.from(s, 'utf8'));
const explicit = (n: number, inner: Buffer) => tlv(0xa0 | n, inner);

function integer(b: Buffer): Buffer {
  let i = 0;
  while (i < b.length - 1 && b[i] === 0) i++;
  const v = b.subarray(i);
  return tlv(0x02, v[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), v]) : v);
}

function oid(dotted: string): Buffer {
  const [a, b, ...rest] = dotted.split('.').map(Number);
  const out = [a! * 40 + b!];
  for (const n of rest) {
    const chunk = [n & 0x7f];
    for (let v = n >>> 7; v > 0; v >>>= 7) chunk.unshift((v & 0x7f) | 0x80);
    out.push(...chunk);
  }
  return tlv(0x06, Buffer.from(out));
}

/** UTCTime through 2049, GeneralizedTime after (RFC 5280 4.1.2.5). */
function time(d: Date): Buffer {
  const iso = d.toISOString().replace(/\.\d{3}Z$/, 'Z').replace(/[-:T]/g, '');
  const year = d.getUTCFullYear();
  return year >= 1950 && year < 2050 ? tlv(0x17, Buffer.from(iso.slice(2))) : tlv(0x18, Buffer.from(iso));
}

const OID = {
  ecdsaSha256: '1.2.840.10045.4.3.2',
  commonName: '2.5.4.3',
  organization: '2.5.4.10',
  basicConstraints: '2.5.29.19',
  keyUsage: '2.5.29.15',
  extKeyUsage: '2.5.29.37',
  serverAuth: '1.3.6.1.5.5.7.3.1',
  subjectAltName: '2.5.29.17',
  subjectKeyId: '2.5.29.14',
  authorityKeyId: '2.5.29.35',
};

const name = (cn: string) => seq(set(seq(oid(OID.organization), utf8('cms sandbox'))), set(seq(oid(OID.commonName), utf8(cn))));
const extension = (id: string, critical: boolean, value: Buffer) => seq(oid(id), ...(critical ? [bool(true)] : []), octets(value));

/** The key identifier: SHA-1 of the subject public key's bits (RFC 5280 4.2.1.2, method 1). */
function keyId(spki: Buffer): Buffer {
  const key = createPublicKey({ key: spki, format: 'der', type: 'spki' }).export({ format: 'jwk' });
  // An uncompressed P-256 point: 04 || x || y.
  const point = Buffer.concat([Buffer.from([4]), Buffer.from(key.x!, 'base64url'), Buffer.from(key.y!, 'base64url')]);
  return createHash('sha1').update(point).digest();
}

export interface Issue {
  /** The subject's public key. */
  subjectKey: KeyObject;
  /** The issuer's private key (the subject's own for a self-signed CA). */
  issuerKey: KeyObject;
  /** The issuer's public key (for the authority key identifier). */
  issuerPublicKey: KeyObject;
  issuerName: string;
  notBefore: Date;
  notAfter: Date;
  /** A CA (keyCertSign, path length 0), or a server leaf for these exact DNS names. */
  ca?: { commonName: string };
  dnsNames?: string[];
}

/** A certificate, DER-encoded, signed by the issuer's key. */
export function issueCertificate(o: Issue): Buffer {
  const spki = o.subjectKey.export({ format: 'der', type: 'spki' });
  const issuerSpki = o.issuerPublicKey.export({ format: 'der', type: 'spki' });
  const serial = randomBytes(16);
  serial[0] = (serial[0]! & 0x7f) | 0x01;
  const algorithm = seq(oid(OID.ecdsaSha256));
  const extensions = o.ca
    ? [
        extension(OID.basicConstraints, true, seq(bool(true), integer(Buffer.from([0])))),
        // keyCertSign and cRLSign (bits 5 and 6): 0b0000011 with one unused bit.
        extension(OID.keyUsage, true, bits(Buffer.from([0x06]), 1)),
        extension(OID.subjectKeyId, false, octets(keyId(spki))),
      ]
    : [
        extension(OID.basicConstraints, true, seq()),
        // digitalSignature (bit 0), seven unused bits.
        extension(OID.keyUsage, true, bits(Buffer.from([0x80]), 7)),
        extension(OID.extKeyUsage, false, seq(oid(OID.serverAuth))),
        extension(OID.subjectAltName, false, seq(...(o.dnsNames ?? []).map((n) => tlv(0x82, Buffer.from(n, 'ascii'))))),
        extension(OID.authorityKeyId, false, seq(tlv(0x80, keyId(issuerSpki)))),
      ];
  const subject = o.ca ? name(o.ca.commonName) : seq(set(seq(oid(OID.commonName), utf8(o.dnsNames?.[0] ?? 'cms sandbox'))));
  const tbs = seq(explicit(0, integer(Buffer.from([2]))), integer(serial), algorithm, name(o.issuerName), seq(time(o.notBefore), time(o.notAfter)), subject, spki, explicit(3, seq(...extensions)));
  return seq(tbs, algorithm, bits(sign('sha256', tbs, o.issuerKey)));
}

export const pem = (der: Buffer): string => `-----BEGIN CERTIFICATE-----\n${der.toString('base64').replace(/.{1,64}/g, '$&\n')}-----END CERTIFICATE-----\n`;

/** What Chromium's --ignore-certificate-errors-spki-list takes: base64 SHA-256 of the key's SubjectPublicKeyInfo. */
export const spkiHash = (key: KeyObject): string => createHash('sha256').update(key.export({ format: 'der', type: 'spki' })).digest('base64');
