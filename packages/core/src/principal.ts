/** Who a call is made for. */
export interface Principal {
  readonly agentId?: string;
  readonly userId?: string;
  readonly channel?: string;
  readonly tenantId?: string;
}
