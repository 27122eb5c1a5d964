import { useEffect, useState } from 'react';
import { parseYouTubeId, youTubeThumbnail } from '@/lib/youtube';

interface Props {
  value: string;
  onChange: (videoId: string) => void;
}

/** YouTube URL or id; the parsed id is the value, anything unparseable clears it. */
export function YouTubeField({ value, onChange }: Props) {
  const [text, setText] = useState(value);
  const [thumbFailed, setThumbFailed] = useState(false);
  useEffect(() => {
    setText((t) => (parseYouTubeId(t) === value ? t : value));
  }, [value]);
  useEffect(() => setThumbFailed(false), [value]);

  function commit(raw: string) {
    const id = parseYouTubeId(raw);
    onChange(id);
    return id;
  }

  return (
    <div className="field">
      <label htmlFor="videoId">YouTube Video</label>
      <input
        id="videoId"
        className="input"
        placeholder="YouTube URL or video ID"
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          commit(e.target.value);
        }}
        onBlur={(e) => setText(commit(e.target.value))}
      />
      {value ? (
        thumbFailed ? (
          <span className="field-error">Invalid YouTube video ID or video not accessible</span>
        ) : (
          <>
            <img
              className="featured-preview"
              src={youTubeThumbnail(value)}
              alt="YouTube video thumbnail"
              onError={() => setThumbFailed(true)}
            />
            <span className="small muted">Video ID: {value}</span>
          </>
        )
      ) : (
        <span className="field-hint">Paste a watch, youtu.be, embed or /v/ link, or an 11-character video ID.</span>
      )}
    </div>
  );
}
