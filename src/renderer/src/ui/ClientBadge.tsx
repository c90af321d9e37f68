/**
 * A client session's label with its colour: the same client has the same colour in every panel
 * (Pages, Log, Hold, Connection), so a person can tell agents apart at a glance. The colour is the
 * client name's (clientStyles.ts: the same in every session and run, and different for the clients
 * connected at once), with the session's number beside the name when the name has several
 * (`gemini-cli #2`). The app frame provides the styles; the name is untrusted text.
 */
import {createContext, useContext} from 'react';
import {preferredColor, type ClientStyle, type ClientStyles} from './clientStyles.js';
import {revealInvisible} from './revealInvisible.js';

export {CLIENT_COLORS} from './clientStyles.js';

/** The styles of the clients the store knows (provided by the app frame). */
export const ClientStylesContext = createContext<ClientStyles>(new Map());

/** A client's colour and session number (its name's colour when the store does not know it). */
export function styleOf(styles: ClientStyles, client: {id: string; name: string}): ClientStyle {
  return styles.get(client.id) ?? {color: preferredColor(client.name)};
}

/** `gemini-cli #2` when the name has several sessions, else the name. */
export function clientLabel(name: string, style: ClientStyle): string {
  return style.session === undefined ? name : `${name} #${style.session}`;
}

export function ClientBadge(props: {
  client: {id: string; name: string};
  /** Shown after the name, muted ("isolated", "gone"). */
  note?: string;
  title?: string;
}): React.JSX.Element {
  const {client, note} = props;
  const style = styleOf(useContext(ClientStylesContext), client);
  return (
    <span
      className={`client-badge client-badge--${style.color}`}
      data-client-id={client.id}
      data-client-color={style.color}
      title={props.title ?? revealInvisible(clientLabel(client.name, style))}
    >
      <span className="client-badge__dot" aria-hidden="true" />
      <span className="client-badge__name">{revealInvisible(client.name)}</span>
      {style.session === undefined ? null : (
        <span className="client-badge__session">#{style.session}</span>
      )}
      {note ? <span className="client-badge__note">{note}</span> : null}
    </span>
  );
}
