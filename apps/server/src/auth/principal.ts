/** The kinds of principal a key can stand for. */
export const PRINCIPAL_KINDS = ['admin', 'agent', 'user'] as const;

/** One of {@link PRINCIPAL_KINDS}. */
export type PrincipalKind = (typeof PRINCIPAL_KINDS)[number];

/** Who a request is from: the key's principal, in its tenant. */
export interface ServerPrincipal {
  readonly keyId: string;
  readonly tenantId: string;
  readonly kind: PrincipalKind;
  readonly id: string;
}
