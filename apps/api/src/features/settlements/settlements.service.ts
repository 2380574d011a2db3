import type {
  PageQuery,
  SettlementConfigurationInput,
  SettlementGroup,
  settlementGroupQuery,
} from '@ledgerline/contract';
import { settlementMessages } from '@ledgerline/contract';
import { v7 as uuidv7 } from 'uuid';
import type { Tx } from '../../db/client.js';
import { ConflictError, NotFoundError } from '../../platform/errors.js';
import type { GroupValues, SettlementsRepository } from './settlements.repository.js';
import type { DatasetScope } from '../../platform/scope.js';

type GroupFields = (typeof settlementGroupQuery)['fields'];

/**
 * spec 3 §2–§5 settlement configuration groups and their configurations. A group or
 * configuration of another company or tenant is simply not found (design §3).
 */
export function createSettlementsService(deps: { repository: SettlementsRepository }) {
  const { repository } = deps;
  const groupNotFound = (id: string) =>
    new NotFoundError(`Settlement configuration group ${id} was not found.`);

  async function get(tx: Tx, scope: DatasetScope, id: string): Promise<SettlementGroup> {
    const group = await repository.find(tx, scope, id);
    if (!group) throw groupNotFound(id);
    return group;
  }

  async function lockedGroup(tx: Tx, scope: DatasetScope, groupId: string) {
    if (!(await repository.lockGroup(tx, scope, groupId))) throw groupNotFound(groupId);
  }

  return {
    page: (tx: Tx, scope: DatasetScope, query: PageQuery<GroupFields>) =>
      repository.page(tx, scope, query),

    get,

    async create(tx: Tx, scope: DatasetScope, input: GroupValues): Promise<SettlementGroup> {
      const id = uuidv7();
      await repository.insertGroup(tx, scope, id, input);
      return get(tx, scope, id);
    },

    async update(tx: Tx, scope: DatasetScope, id: string, input: GroupValues) {
      if (!(await repository.updateGroup(tx, scope, id, input))) throw groupNotFound(id);
      return get(tx, scope, id);
    },

    /**
     * docs/decisions/040-settlement-groups-and-late-payment.md "Settlement groups in use": a group an account has chosen, or the
     * company default, is refused with 409 and says where it is used.
     */
    async remove(tx: Tx, scope: DatasetScope, id: string) {
      await lockedGroup(tx, scope, id);
      const uses = await repository.uses(tx, scope, id);
      const where = [
        ...(uses.isDefault ? ['it is the company default'] : []),
        ...(uses.accounts > 0
          ? [`${uses.accounts} ${uses.accounts === 1 ? 'account uses' : 'accounts use'} it`]
          : []),
      ];
      if (where.length > 0)
        throw new ConflictError(
          `${settlementMessages.groupInUse}: ${where.join(' and ')}. Choose another group there first.`,
          'settlementGroupInUse',
        );
      await repository.deleteGroup(tx, scope, id);
    },

    async addConfiguration(
      tx: Tx,
      scope: DatasetScope,
      groupId: string,
      input: SettlementConfigurationInput,
    ) {
      await lockedGroup(tx, scope, groupId);
      await repository.insertConfiguration(tx, scope, groupId, uuidv7(), input);
      return get(tx, scope, groupId);
    },

    async updateConfiguration(
      tx: Tx,
      scope: DatasetScope,
      groupId: string,
      id: string,
      input: SettlementConfigurationInput,
    ) {
      await lockedGroup(tx, scope, groupId);
      if (!(await repository.updateConfiguration(tx, scope, groupId, id, input)))
        throw new NotFoundError(`Settlement configuration ${id} was not found in this group.`);
      return get(tx, scope, groupId);
    },

    async removeConfiguration(tx: Tx, scope: DatasetScope, groupId: string, id: string) {
      await lockedGroup(tx, scope, groupId);
      if (!(await repository.deleteConfiguration(tx, scope, groupId, id)))
        throw new NotFoundError(`Settlement configuration ${id} was not found in this group.`);
    },
  };
}
export type SettlementsService = ReturnType<typeof createSettlementsService>;
