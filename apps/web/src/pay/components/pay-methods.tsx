import type { PayMethod, PayMethodGroup } from '@ledgerline/contract';

const groupOrder: PayMethodGroup[] = ['Card', 'BankTransfer', 'BankDebit'];
const groupNames: Record<PayMethodGroup, string> = {
  Card: 'Card',
  BankTransfer: 'Bank transfer',
  BankDebit: 'Direct debit',
};

/** The save-card box; the spec gives no wording. */
export const saveCardLabel = 'Save this card for future payments';

export function defaultMethod(methods: PayMethod[]): string {
  return (methods.find((method) => method.isDefault) ?? methods[0])?.configurationId ?? '';
}

/** Whether a method's payment amount filter takes the amount (it follows the amount chosen). */
function takesAmount(method: PayMethod, amount: number): boolean {
  return (
    (method.minimumAmount == null || amount >= method.minimumAmount) &&
    (method.maximumAmount == null || amount <= method.maximumAmount)
  );
}

/** The methods in their groups (Card, Bank transfer, Direct debit), the default first in each. */
function grouped(methods: PayMethod[]) {
  return groupOrder
    .map((group) => ({
      group,
      methods: methods
        .filter((method) => method.group === group)
        .sort((a, b) => Number(b.isDefault) - Number(a.isDefault)),
    }))
    .filter((entry) => entry.methods.length > 0)
    .sort((a, b) => {
      const hasDefault = (entry: typeof a) => entry.methods.some((method) => method.isDefault);
      return Number(hasDefault(b)) - Number(hasDefault(a));
    });
}

/**
 * The methods offered follow the amount chosen; the choice falls back to the default of those.
 * The save-card box shows when the chosen method offers it: the payer's choice for that method,
 * or untouched, the method's default (save-card default).
 */
export function methodChoice(
  methods: PayMethod[],
  amount: number,
  chosen: string,
  saveCardChoices: Record<string, boolean>,
) {
  const offeredMethods = methods.filter((method) => takesAmount(method, amount));
  const configurationId = offeredMethods.some((m) => m.configurationId === chosen)
    ? chosen
    : defaultMethod(offeredMethods);
  const saveCardOffer = offeredMethods.find(
    (method) => method.configurationId === configurationId,
  )?.saveCard;
  const saveCard = saveCardOffer
    ? (saveCardChoices[configurationId] ?? saveCardOffer.checkedByDefault)
    : undefined;
  return { offeredMethods, configurationId, saveCard };
}

interface MethodsFieldsetProps {
  /** The methods that take the amount chosen. */
  methods: PayMethod[];
  configurationId: string;
  error: string | undefined;
  /** The amount chosen, formatted. */
  amount: string;
  onChoose: (configurationId: string) => void;
  /** The save-card box's state, when the chosen method offers it. */
  saveCard: boolean | undefined;
  onSaveCard: (checked: boolean) => void;
}

/** How the payer pays: the methods in their groups, and the save-card box. */
export function MethodsFieldset({
  methods,
  configurationId,
  error,
  amount,
  onChoose,
  saveCard,
  onSaveCard,
}: MethodsFieldsetProps) {
  return (
    <fieldset className="methods" aria-describedby={error ? 'methods-error' : undefined}>
      <legend>How would you like to pay?</legend>
      {error && (
        <p className="field-error" id="methods-error">
          {error}
        </p>
      )}
      {methods.length === 0 && (
        <p className="field-error" role="status">
          No way to pay takes {amount}. Please change the amount.
        </p>
      )}
      {grouped(methods).map(({ group, methods: groupMethods }) => (
        <div key={group} className="method-group" role="group" aria-labelledby={`group-${group}`}>
          <p className="method-group-name" id={`group-${group}`}>
            {groupNames[group]}
          </p>
          {groupMethods.map((method) => (
            <label key={method.configurationId} className="method">
              <input
                type="radio"
                name="configurationId"
                value={method.configurationId}
                checked={configurationId === method.configurationId}
                onChange={() => onChoose(method.configurationId)}
              />
              <span>
                {method.displayName}
                {method.isTest && <span className="tag">Test</span>}
              </span>
            </label>
          ))}
        </div>
      ))}
      {saveCard !== undefined && (
        <label className="save-card">
          <input
            type="checkbox"
            name="saveCard"
            checked={saveCard}
            onChange={(event) => onSaveCard(event.target.checked)}
          />
          <span>{saveCardLabel}</span>
        </label>
      )}
    </fieldset>
  );
}
