import { Migration } from '@mikro-orm/migrations';

/** The self-service catalog ships with the schema; later changes to it are migrations too. */
export class Migration20261121000002CatalogSeed extends Migration {
  override name = 'Migration20261121000002CatalogSeed';

  up(): void {
    this.addSql(`
      insert into catalog_products (key, name, description, plans_required, demo_url, supports_trial, position) values
        ('analytics', 'Analytics', 'Dashboards and reports over tenant usage data.', '{starter,growth,enterprise}', 'https://demo.example.com/analytics', true, 0),
        ('automation', 'Automation', 'Rule-based workflows triggered by platform events.', '{growth,enterprise}', 'https://demo.example.com/automation', true, 1),
        ('data-export', 'Data Export', 'Scheduled exports to the customer''s warehouse.', '{growth,enterprise}', null, false, 2),
        ('sso', 'Single Sign-On', 'SAML and OIDC federation with the customer''s identity provider.', '{enterprise}', null, false, 3),
        ('api-access', 'API Access', 'Headless access to the platform with per-tenant API keys.', '{starter,growth,enterprise}', null, true, 4)`);
  }
}
