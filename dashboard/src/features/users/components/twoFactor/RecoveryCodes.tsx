import { copyText } from '@/lib/clipboard';

interface Props {
  codes: string[];
  username: string;
  onDone: () => void;
}

/** The recovery codes, shown once: Copy, Download (a text file) and "I have saved them". */
export function RecoveryCodes({ codes, username, onDone }: Props) {
  const text = codes.join('\n');
  function download() {
    const url = URL.createObjectURL(new Blob([`Recovery codes of ${username}\n\n${text}\n`], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'recovery-codes.txt';
    link.click();
    URL.revokeObjectURL(url);
  }
  return (
    <div className="stack">
      <div className="notice notice-warning" role="status">
        Save these recovery codes now: they are shown only once. Each one signs you in once if you lose your phone.
      </div>
      <ul className="recovery-codes" aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="row" style={{ flexWrap: 'wrap' }}>
        <button type="button" className="btn btn-secondary" onClick={() => void copyText(text)}>
          Copy
        </button>
        <button type="button" className="btn btn-secondary" onClick={download}>
          Download
        </button>
        <button type="button" className="btn btn-primary" onClick={onDone}>
          I have saved them
        </button>
      </div>
    </div>
  );
}
