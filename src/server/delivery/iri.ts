/** Delivery names items by IRIs under this base (graphs, queries); a module of its own so the CLI can share it. */
export const IRI_BASE = 'http://content.sandbox/';
