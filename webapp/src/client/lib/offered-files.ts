/**
 * Files made in the browser (a QR code's SVG and PNG, the saved links) and
 * offered on download links. Each is an object URL until the set is cleared,
 * when the page offers newer ones instead.
 */
export class OfferedFiles {
  private readonly urls: string[] = [];

  /** Frees every file offered so far: their links no longer lead anywhere useful. */
  clear(): void {
    for (const url of this.urls.splice(0)) URL.revokeObjectURL(url);
  }

  /** Puts `file` behind `link`, downloaded as `name`, and shows the link; answers the file's URL. */
  offer(link: HTMLAnchorElement, file: Blob, name: string): string {
    const url = URL.createObjectURL(file);
    this.urls.push(url);
    link.href = url;
    link.download = name;
    link.hidden = false;
    return url;
  }
}
