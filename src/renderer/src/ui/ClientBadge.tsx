/**
 * A client session's label with its colour: the same client has the same colour in every panel
 * (Pages, Log, Hold, Connection), so a person can tell agents apart at a glance. The colour comes
 * from the client's id (eight theme colours, light and dark); the name is untrusted text.
 */
import {revealInvisible} from './revealInvisible.js';

/** How many client colours the theme defines (--client-0 … --client-7). */
export const CLIENT_COLORS = 8;

/** The client's colour slot: a stable hash of its id. */
export function clientColorIndex(clientId: string): number {
  let hash = 2166136261;
  for (let index = 0; index < clientId.length; index++) {
    hash = Math.imul(hash ^ clientId.charCodeAt(index), 16777619);
  }
  return (hash >>> 0) % CLIENT_COLORS;
}

export function ClientBadge(props: {
  client: {id: string; name: string};
  /** Shown after the name, muted ("isolated", "gone"). */
  note?: string;
  title?: string;
}): React.JSX.Element {
  const {client, note} = props;
  return (
    <span
      className={`client-badge client-badge--${clientColorIndex(client.id)}`}
      data-client-id={client.id}
      title={props.title ?? revealInvisible(client.name)}
    >
      <span className="client-badge__dot" aria-hidden="true" />
      <span className="client-badge__name">{revealInvisible(client.name)}</span>
      {note ? <span className="client-badge__note">{note}</span> : null}
    </span>
  );
}
