import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: [
    './src/db/schema.ts',
    './src/db/schema-receivables.ts',
    './src/db/schema-money-rules.ts',
    './src/db/schema-providers.ts',
    './src/db/schema-company.ts',
    './src/db/schema-web-hooks.ts',
    './src/db/schema-pay.ts',
    './src/db/schema-reminders.ts',
    './src/db/schema-statements.ts',
  ],
  out: './drizzle',
});
