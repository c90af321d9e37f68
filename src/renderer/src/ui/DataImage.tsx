/**
 * An image a tool returned. Only raster image types become a data: URL (an SVG could carry
 * script-like content and is shown as text instead); the base64 payload is checked first.
 */
const SAFE_IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/gif']);
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export function imageDataUrl(mimeType: string, data: string): string | undefined {
  const type = mimeType.toLowerCase();
  if (!SAFE_IMAGE_TYPES.has(type) || data === '' || !BASE64.test(data)) {
    return undefined;
  }
  return `data:${type};base64,${data}`;
}

export function DataImage(props: {mimeType: string; data: string; alt: string}): React.JSX.Element {
  const url = imageDataUrl(props.mimeType, props.data);
  if (!url) {
    return (
      <p className="muted">
        {props.data === ''
          ? `Image (${props.mimeType}) dropped from memory to keep the log bounded.`
          : `Image of type ${props.mimeType} is not shown.`}
      </p>
    );
  }
  return <img className="result-image" src={url} alt={props.alt} />;
}
