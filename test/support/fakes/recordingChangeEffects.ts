import type { AuditStreamRecord } from '../../../domain/auditStreams/auditStreamRepository.ts';
import type { ChangeEffects, CommittedChange, QueuedActorCommand } from '../../../domain/changeEffects/changeEffects.ts';
import type { WebhookEndpointRecord } from '../../../domain/webhooks/webhookEndpointRepository.ts';

/** The change-effects port in memory: records what each service decided should follow its committed change. */
export class RecordingChangeEffects implements ChangeEffects {
  readonly followed: CommittedChange[] = [];
  readonly provisioned: QueuedActorCommand[] = [];
  readonly invitationsSent: QueuedActorCommand[] = [];
  readonly streamsStarted: string[] = [];
  readonly streamsStopped: string[] = [];
  readonly webhookEndpointsChanged: WebhookEndpointRecord[] = [];
  /** What a provisioning wait answers. */
  inviteUrl: string | undefined;

  follow(change: CommittedChange): void {
    this.followed.push(structuredClone(change));
  }

  async provisionWithinWait(handOff: QueuedActorCommand): Promise<string | undefined> {
    this.provisioned.push(handOff);
    return this.inviteUrl;
  }

  async inviteWithinWait(handOff: QueuedActorCommand): Promise<string | undefined> {
    this.invitationsSent.push(handOff);
    return this.inviteUrl;
  }

  async streamCreated(stream: AuditStreamRecord): Promise<void> {
    this.streamsStarted.push(stream.id);
  }

  async streamDeleted(streamId: string): Promise<void> {
    this.streamsStopped.push(streamId);
  }

  async webhookEndpointChanged(endpoint: WebhookEndpointRecord): Promise<void> {
    this.webhookEndpointsChanged.push(endpoint);
  }

  /** Every hand-off delivered after a commit, in order. */
  get handOffs(): QueuedActorCommand[] {
    return this.followed.flatMap((change) => change.handOffs ?? []);
  }

  get staleTenants(): string[] {
    return this.followed.flatMap((change) => change.staleTenants ?? []);
  }

  get staleApiKeys(): string[] {
    return this.followed.flatMap((change) => change.staleApiKeys ?? []);
  }

  get staleListings(): string[] {
    return this.followed.flatMap((change) => change.staleListings ?? []);
  }
}
