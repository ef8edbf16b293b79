/** The reason phrase of each status, so every status line says one (`HTTP/1.1 503 Service Unavailable`), whichever way a reply goes out. */

/**
 * Node's own phrases (node:http `STATUS_CODES`), which `src/` cannot import: both node:http paths
 * and Node's own refusals (runtimes/node/client-errors.ts) then say the same words for a status.
 */
const PHRASES: Readonly<Record<number, string>> = {
  100: 'Continue',
  101: 'Switching Protocols',
  102: 'Processing',
  103: 'Early Hints',
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  203: 'Non-Authoritative Information',
  204: 'No Content',
  205: 'Reset Content',
  206: 'Partial Content',
  207: 'Multi-Status',
  208: 'Already Reported',
  226: 'IM Used',
  300: 'Multiple Choices',
  301: 'Moved Permanently',
  302: 'Found',
  303: 'See Other',
  304: 'Not Modified',
  305: 'Use Proxy',
  307: 'Temporary Redirect',
  308: 'Permanent Redirect',
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  407: 'Proxy Authentication Required',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
  411: 'Length Required',
  412: 'Precondition Failed',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  416: 'Range Not Satisfiable',
  417: 'Expectation Failed',
  418: "I'm a Teapot",
  421: 'Misdirected Request',
  422: 'Unprocessable Entity',
  423: 'Locked',
  424: 'Failed Dependency',
  425: 'Too Early',
  426: 'Upgrade Required',
  428: 'Precondition Required',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  451: 'Unavailable For Legal Reasons',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
  505: 'HTTP Version Not Supported',
  506: 'Variant Also Negotiates',
  507: 'Insufficient Storage',
  508: 'Loop Detected',
  509: 'Bandwidth Limit Exceeded',
  510: 'Not Extended',
  511: 'Network Authentication Required',
};

/** What a status no registry names is called: its class (RFC 9110 §15), never an empty phrase or a wrong `OK`. */
const CLASSES = ['Informational', 'Success', 'Redirection', 'Client Error', 'Server Error'];

/**
 * The reason phrase for `status`: the registered one, else its class's name (a fault may answer
 * any status from 400 to 599, e.g. 499 is `Client Error`).
 *
 * @example
 * reasonPhrase(503); // 'Service Unavailable'
 * reasonPhrase(599); // 'Server Error'
 */
export function reasonPhrase(status: number): string {
  return PHRASES[status] ?? CLASSES[Math.floor(status / 100) - 1] ?? '';
}
