import { useState, type InputHTMLAttributes, type Ref } from 'react';
import { Eye, EyeOff } from 'lucide-react';

type Props = Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> & { ref?: Ref<HTMLInputElement> };

/** Password input with a show/hide toggle; takes react-hook-form's register() props. */
export function PasswordInput({ className = 'input', ...props }: Props) {
  const [show, setShow] = useState(false);
  return (
    <div className="input-group">
      <input type={show ? 'text' : 'password'} className={className} {...props} />
      <button
        type="button"
        className="btn btn-ghost btn-icon input-addon"
        aria-label={show ? 'Hide password' : 'Show password'}
        onClick={() => setShow((s) => !s)}
      >
        {show ? <EyeOff size={16} /> : <Eye size={16} />}
      </button>
    </div>
  );
}
