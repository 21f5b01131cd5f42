/** A token endpoint's answer: its status and the error it names, if any. */
export type TokenAnswer = { status: number; body: { error?: string; error_description?: string } };

/**
 * Keycloak's answer to a sign-in of a user it holds as temporarily disabled. Its brute-force guard (one sign-in of a
 * user at a time) also holds a user for a moment after a request about that user (a refused refresh, an admin's
 * update of the user) until that request's transaction has ended. The callers' passwords are always right, so this
 * answer is the guard, and the grant is asked again: a real lockout outlasts the deadline and still fails the test.
 */
const isHeldByBruteForceGuard = (answer: TokenAnswer) => answer.status === 400 && answer.body.error_description === 'Invalid user credentials';

/** `ask`'s answer once the guard no longer holds the user, or its last answer at `withinMs`. */
export async function pastBruteForceGuard<T extends TokenAnswer>(ask: () => Promise<T>, withinMs: number): Promise<T> {
  let answer = await ask();
  for (const deadline = Date.now() + withinMs; isHeldByBruteForceGuard(answer) && Date.now() < deadline; answer = await ask()) {
    await new Promise((r) => setTimeout(r, 200));
  }
  return answer;
}
