/** Who a grant is for. */
export type GranteeKind = 'agent' | 'user';

/** A grant: which tools one agent or user of a tenant may list and call. */
export interface Grant {
  readonly id: string;
  readonly tenantId: string;
  readonly principalKind: GranteeKind;
  readonly principalId: string;
  /** Tool-name patterns allowed (`*` matches any run of characters). */
  readonly allow: string[];
  /** Tool-name patterns denied; a deny in any enabled grant wins over every allow. */
  readonly deny: string[];
  readonly enabled: boolean;
  /** Grows by one on every change; `If-Match` on a change must name the current one. */
  readonly version: number;
  readonly createdAt: string;
  readonly updatedAt: string;
}
