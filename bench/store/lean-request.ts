// One keep-alive connection that sends the same request again and again and reads each answer into one
// reused buffer, for the query phase's timed loop. node:http hands every response over as freshly allocated
// chunks (1.46 MB of external memory per 1,000-span answer), and V8 answered that in the load client with a
// mark-compact about every eighth query — 5–9 ms pauses the timing counted as the server's latency
// (2026-12-04: 85–90 % of the queries over 12 ms overlapped one of the client's own GCs). Here a socket with
// `onread` reads into a buffer allocated once, and the answer is compared with the expected bytes in place,
// so the timed loop allocates next to nothing per query. Only Content-Length framing is read: a server that
// answers chunked is refused with a message (this project's server and the Python reference, uvicorn's
// JSONResponse, both send a length).
import net from "node:net";

const CRLF2 = Buffer.from("\r\n\r\n");
const HEAD_MAX = 16 * 1024;

export class LeanRequest {
  readonly #socket: net.Socket;
  readonly #request: Buffer;
  readonly #head = Buffer.alloc(HEAD_MAX);
  #headLen = 0;
  #bodyLen = -1;
  #received = 0;
  #status = 0;
  #same = true;
  #expected: Buffer = Buffer.alloc(0);
  #pending: { resolve: (r: { status: number; same: boolean }) => void; reject: (e: Error) => void } | null = null;

  private constructor(socket: net.Socket, request: Buffer) {
    this.#socket = socket;
    this.#request = request;
  }

  /** Connects; `request` is the whole HTTP/1.1 request (head and body), sent as is each time. */
  static open(host: string, port: number, request: Buffer): Promise<LeanRequest> {
    return new Promise((resolve, reject) => {
      let lean: LeanRequest | null = null;
      const buffer = Buffer.allocUnsafe(1 << 20);
      const socket = net.connect({ host, port, noDelay: true, onread: { buffer, callback: (n) => (lean!.#read(buffer, n), true) } });
      lean = new LeanRequest(socket, request);
      socket.once("connect", () => resolve(lean));
      socket.on("error", (e) => (lean.#pending ? lean.#fail(e) : reject(e)));
      socket.on("close", () => lean.#fail(new Error("the server closed the connection")));
    });
  }

  /** Sends the request; resolves when the whole answer is in, with its status and whether it equals `expected`. */
  send(expected: Buffer): Promise<{ status: number; same: boolean }> {
    if (this.#pending) throw new Error("one request at a time");
    this.#expected = expected;
    this.#headLen = this.#received = this.#status = 0;
    this.#bodyLen = -1;
    this.#same = true;
    return new Promise((resolve, reject) => {
      this.#pending = { resolve, reject };
      this.#socket.write(this.#request);
    });
  }

  close() {
    this.#pending = null;
    this.#socket.destroy();
  }

  #fail(e: Error) {
    const p = this.#pending;
    this.#pending = null;
    p?.reject(e);
  }

  #read(buf: Buffer, n: number): void {
    let at = 0;
    if (this.#bodyLen < 0) {
      // Copy into the head buffer until the blank line: it may come split over reads.
      const take = Math.min(n, HEAD_MAX - this.#headLen);
      buf.copy(this.#head, this.#headLen, 0, take);
      const end = this.#head.subarray(0, this.#headLen + take).indexOf(CRLF2);
      if (end < 0) {
        this.#headLen += take;
        if (this.#headLen === HEAD_MAX) this.#fail(new Error("response head over 16 KB"));
        return;
      }
      at = end + 4 - this.#headLen;
      if (!this.#parseHead(this.#head.toString("latin1", 0, end))) return;
    }
    const bytes = n - at;
    if (bytes > 0 && this.#same) {
      const from = this.#received;
      this.#same = from + bytes <= this.#expected.length && buf.compare(this.#expected, from, from + bytes, at, n) === 0;
    }
    this.#received += bytes;
    if (this.#received >= this.#bodyLen) {
      const p = this.#pending;
      this.#pending = null;
      p?.resolve({ status: this.#status, same: this.#same && this.#received === this.#expected.length });
    }
  }

  #parseHead(head: string): boolean {
    this.#status = Number(head.slice(9, 12));
    const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
    if (!length) {
      this.#fail(new Error(`the answer has no Content-Length (chunked?); this timing loop reads only length-framed answers: ${head.split("\r\n")[0]}`));
      return false;
    }
    this.#bodyLen = Number(length[1]);
    return true;
  }
}
