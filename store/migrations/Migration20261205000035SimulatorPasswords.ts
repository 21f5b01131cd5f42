import { Migration } from '@mikro-orm/migrations';

/**
 * The simulated provider's users get a password, kept as a scrypt hash (identityProvider/simulatedPasswordHash.ts):
 * an invitation to an account that has one is accepted by signing in with it (SPEC-EXTENSIONS §13).
 */
export class Migration20261205000035SimulatorPasswords extends Migration {
  override name = 'Migration20261205000035SimulatorPasswords';

  up(): void {
    this.addSql(`alter table idp_sim_users add column password_hash text`);
  }
}
