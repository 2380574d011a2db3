import type { PaymentMethodConfiguration } from '@ledgerline/contract';
import { v7 as uuidv7 } from 'uuid';
import type { Executor } from '../../db/client.js';
import type { SecretBox } from '../../platform/secrets.js';
import type { DatasetScope } from '../../platform/scope.js';
import type { PaymentProvidersRepository } from './payment-providers.repository.js';

/** What a new demo company's Sandbox configuration is called (a number follows if it is taken). */
export const demoSandboxName = 'Sandbox';

/** The Sandbox configuration a demo company comes with: enabled, test, Card. */
const demoSandbox = {
  providerName: 'Sandbox' as const,
  description: 'Test card payments of this demo company: no money moves.',
  enabled: true,
  displayPriority: 0,
  isTest: true,
  settings: {},
  paymentMethodConfigurations: [
    { paymentMethodType: 'Card', enabled: true, filterGroup: null },
  ] satisfies PaymentMethodConfiguration[],
};

/**
 * A demo company can take a payment from its first minute. Its generated payments name
 * Ledgerline's Sandbox, so it comes with a Sandbox configuration, its default, and they name that
 * configuration (docs/decisions/119-a-demo-company-comes-with-the-sandbox.md, "A demo company comes with the Sandbox"). A reset keeps the
 * configuration staff have (edited, disabled, or no longer the default: theirs to choose), adds one
 * when the company has none left, and makes it the default only when the company has no default.
 */
export function createDemoSandbox(deps: {
  repository: PaymentProvidersRepository;
  secrets: SecretBox;
}) {
  const { repository, secrets } = deps;

  async function freeName(executor: Executor, scope: DatasetScope): Promise<string> {
    for (let n = 1; ; n++) {
      const name = n === 1 ? demoSandboxName : `${demoSandboxName} ${n}`;
      if (!(await repository.nameTaken(executor, scope, name, null))) return name;
    }
  }

  /** The company's Sandbox configuration, made (and made its default) when it has none. */
  return async function ensureDemoSandbox(
    executor: Executor,
    scope: DatasetScope,
  ): Promise<string> {
    const id =
      (await repository.sandboxId(executor, scope)) ??
      (
        await repository.insert(executor, scope, uuidv7(), {
          ...demoSandbox,
          name: await freeName(executor, scope),
          credentialsSealed: secrets.seal(JSON.stringify({})),
        })
      ).id;
    if ((await repository.defaultId(executor, scope)) === null)
      await repository.setDefault(executor, scope, id);
    return id;
  };
}
export type EnsureDemoSandbox = ReturnType<typeof createDemoSandbox>;
