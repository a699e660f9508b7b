// The local `cms sandbox serve`: what the embedded profile's sandbox commands that need a server
// (console, requests) reach.

/** Whether a sandbox answers at the origin (its public status endpoint). */
export async function answers(origin: string): Promise<boolean> {
  try {
    const res = await fetch(`${origin}/__sandbox/status`, { headers: { Accept: 'application/json' }, signal: AbortSignal.timeout(3000) });
    await res.body?.cancel();
    return res.ok;
  } catch {
    return false;
  }
}
