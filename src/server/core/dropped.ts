/**
 * Thrown by the service to drop the connection without an answer (an injected fault). The
 * HTTP adapter destroys the socket; the embedded transport turns it into a network error.
 */
export class DroppedConnection extends Error {
  constructor() {
    super('connection dropped (injected fault)');
  }
}
