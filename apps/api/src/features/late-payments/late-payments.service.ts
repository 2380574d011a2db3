import type {
  LatePaymentConfiguration,
  PageQuery,
  UkLatePaymentInfo,
  latePaymentQuery,
} from '@ledgerline/contract';
import { latePaymentMessages } from '@ledgerline/contract';
import { v7 as uuidv7 } from 'uuid';
import type { Tx } from '../../db/client.js';
import { ConflictError, NotFoundError, ValidationError } from '../../platform/errors.js';
import { createBankRateHistory, referenceDate } from '../money-rules/index.js';
import { toCalendarDate } from '../money-rules/index.js';
import { loadMoneyRules, readBankRates } from '../money-rules/index.js';
import { debtRecoveryCharges, statutoryMargin } from '../money-rules/index.js';
import type { LatePaymentValues, LatePaymentsRepository } from './late-payments.repository.js';
import type { DatasetScope } from '../../platform/scope.js';

type Fields = (typeof latePaymentQuery)['fields'];

/** spec 3 §2, §3, §5, §7 late-payment configurations and the UK statutory information. */
export function createLatePaymentsService(deps: { repository: LatePaymentsRepository }) {
  const { repository } = deps;
  const notFound = (id: string) =>
    new NotFoundError(`Late payment configuration ${id} was not found.`);

  async function get(tx: Tx, scope: DatasetScope, id: string): Promise<LatePaymentConfiguration> {
    const configuration = await repository.find(tx, scope, id);
    if (!configuration) throw notFound(id);
    return configuration;
  }

  /** spec 3 §2: only UK opens a form; Custom is not available yet. */
  function checkType(values: LatePaymentValues) {
    if (values.type === 'Custom')
      throw new ValidationError(
        { type: [latePaymentMessages.customNotAvailable] },
        latePaymentMessages.customNotAvailable,
      );
  }

  return {
    page: (tx: Tx, scope: DatasetScope, query: PageQuery<Fields>) =>
      repository.page(tx, scope, query),
    get,

    async create(tx: Tx, scope: DatasetScope, values: LatePaymentValues) {
      checkType(values);
      const id = uuidv7();
      await repository.insert(tx, scope, id, values);
      return get(tx, scope, id);
    },

    async update(tx: Tx, scope: DatasetScope, id: string, values: LatePaymentValues) {
      checkType(values);
      if (!(await repository.update(tx, scope, id, values))) throw notFound(id);
      return get(tx, scope, id);
    },

    /** docs/decisions/040-settlement-groups-and-late-payment.md "Settlement groups in use": the same rule for late-payment configurations. */
    async remove(tx: Tx, scope: DatasetScope, id: string) {
      const configuration = await repository.find(tx, scope, id, true);
      if (!configuration) throw notFound(id);
      const accounts = await repository.accountUses(tx, scope, id);
      const where = [
        ...(configuration.isDefault ? ['it is the company default'] : []),
        ...(accounts > 0
          ? [`${accounts} ${accounts === 1 ? 'account uses' : 'accounts use'} it`]
          : []),
      ];
      if (where.length > 0)
        throw new ConflictError(
          `${latePaymentMessages.configurationInUse}: ${where.join(' and ')}. Choose another configuration there first.`,
          'latePaymentConfigurationInUse',
        );
      await repository.remove(tx, scope, id);
    },

    /**
     * spec 3 §3 UK late payment info for today: the current Bank Rate, the reference rate of the
     * half-year interest starting today falls in, 8 % and the debt recovery cost table.
     */
    async ukInfo(
      tx: Tx,
      scope: DatasetScope,
      today = toCalendarDate(new Date()),
    ): Promise<UkLatePaymentInfo> {
      const [rates, rules] = await Promise.all([readBankRates(tx), loadMoneyRules(tx, scope)]);
      const history = createBankRateHistory(rates);
      const fixedOn = referenceDate(today);
      return {
        annualStatutoryInterestRate: statutoryMargin.toNumber(),
        currentBoEBaseRate: history.rateOn(today)?.toNumber() ?? 0,
        referenceRate: history.rateOn(fixedOn)?.toNumber() ?? 0,
        referenceRateFixedOn: fixedOn,
        latePaymentsApplied: rules.latePaymentsApplied,
        charges: debtRecoveryCharges.map((row) => ({ ...row })),
      };
    },
  };
}
export type LatePaymentsService = ReturnType<typeof createLatePaymentsService>;
