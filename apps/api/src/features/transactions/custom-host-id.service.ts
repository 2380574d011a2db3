import {
  customHostIdMessages,
  type CustomHostIdExampleBody,
  type CustomHostIdOption,
  type CustomHostIdSetting,
  type UpdateCustomHostIdSettingInput,
} from '@ledgerline/contract';
import type { Tx } from '../../db/client.js';
import { ConflictError, ValidationError } from '../../platform/errors.js';
import type { CustomHostIdRepository } from './custom-host-id.repository.js';
import {
  applyTemplate,
  parseTemplate,
  type Template,
  type TemplateValues,
} from './custom-host-id.template.js';
import type { DatasetScope } from '../../platform/scope.js';

/** No saved setting: nothing is computed until a merchant configures it (docs/decisions/027-custom-host-id.md). */
const defaults = {
  createOption: 'NeverCreate',
  updateOption: 'NeverCreate',
  trimWhiteSpace: true,
  parseValue: null,
} as const;

/** A parse value that does not parse is a 400 on parseValue with the parser's message (spec 3 §5). */
function templateOf(parseValue: string): Template {
  const parsed = parseTemplate(parseValue);
  if (!parsed.ok) throw new ValidationError({ parseValue: [parsed.message] }, parsed.message);
  return parsed.template;
}

/** Whether an option computes the custom host id, given what the connector pushed. */
function computes(option: CustomHostIdOption, pushed: string | null | undefined): boolean {
  if (option === 'AlwaysCreate') return true;
  if (option === 'CreateIfNull') return !pushed;
  return false;
}

/** Decides a pushed transaction's custom host id: `create` for a new one, `update` on a match. */
export type CustomHostIdRule = (
  kind: 'create' | 'update',
  pushed: string | null,
  values: TemplateValues,
) => string | null;

/**
 * spec 3 §3 custom host id setting of a company: read, save, test parse, ask for a rebuild, and
 * the rule the connector's push applies. The rebuild itself runs in custom-host-id.jobs.ts.
 */
export function createCustomHostIdService(deps: { repository: CustomHostIdRepository }) {
  const { repository } = deps;

  async function get(tx: Tx, scope: DatasetScope): Promise<CustomHostIdSetting> {
    const [saved, rebuildState] = await Promise.all([
      repository.find(tx, scope),
      repository.rebuildState(tx, scope),
    ]);
    const { updatedOn: _updatedOn, ...setting } = saved ?? { ...defaults, updatedOn: null };
    return { id: 'transaction', ...setting, rebuildState };
  }

  return {
    get,

    async save(
      tx: Tx,
      scope: DatasetScope,
      input: UpdateCustomHostIdSettingInput,
    ): Promise<CustomHostIdSetting> {
      templateOf(input.parseValue);
      await repository.save(tx, scope, input);
      return get(tx, scope);
    },

    /** Test parse: the example transaction's custom host id, or the parse error on parseValue. */
    example(input: CustomHostIdExampleBody): { customHostId: string | null } {
      const template = templateOf(input.parseValue);
      return {
        customHostId: applyTemplate(template, input.transaction ?? {}, input.trimWhiteSpace),
      };
    },

    /**
     * Queues the company's rebuild: 409 while one is queued or running, 400 without a parse
     * value. The caller sends the job once this has committed (style.md §7).
     */
    async requestRebuild(tx: Tx, scope: DatasetScope): Promise<CustomHostIdSetting> {
      const saved = await repository.find(tx, scope);
      if (!saved) {
        throw new ValidationError(
          { parseValue: [customHostIdMessages.rebuildNoParseValue] },
          customHostIdMessages.rebuildNoParseValue,
        );
      }
      const queued = await repository.transition(
        tx,
        scope,
        ['None', 'Completed'],
        'QueuedForRebuild',
      );
      if (!queued)
        throw new ConflictError(customHostIdMessages.rebuildBusy, 'customHostIdRebuildBusy');
      return get(tx, scope);
    },

    /** The push's rule, from the setting read once for the request (spec 3 §3 options). */
    async ruleFor(tx: Tx, scope: DatasetScope): Promise<CustomHostIdRule> {
      const saved = await repository.find(tx, scope);
      if (!saved) return (_kind, pushed) => pushed;
      const template = templateOf(saved.parseValue);
      return (kind, pushed, values) =>
        computes(kind === 'create' ? saved.createOption : saved.updateOption, pushed)
          ? applyTemplate(template, values, saved.trimWhiteSpace)
          : pushed;
    },
  };
}
export type CustomHostIdService = ReturnType<typeof createCustomHostIdService>;
